package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/h1"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/internal/sdktest"
)

// transport lets a test see or alter each request after the SDK signed it.
type transport struct {
	inner  *http.Client
	before func(*http.Request)
	after  func(*http.Response)
}

func (t *transport) Do(r *http.Request) (*http.Response, error) {
	if t.before != nil {
		t.before(r)
	}
	resp, err := t.inner.Do(r)
	if err == nil && t.after != nil {
		t.after(resp)
	}
	return resp, err
}

// fixture is a loopback server running the handler, and the Go SDK pointed
// at it with the well-known key (no --allow-anonymous).
type fixture struct {
	srv   *httptest.Server
	store *store.Store
	tr    *transport
	svc   *aztables.ServiceClient
}

// frontEnv, set (by TestSDKThroughTheFront, through t.Setenv, which also
// keeps tests from running in parallel meanwhile), makes newFixture's
// clients reach the handler through the native server's HTTP/1.1 front
// (core/h1) instead of net/http alone.
const frontEnv = "TABLEPLAY_TEST_THROUGH_FRONT"

func newFixture(t testing.TB) *fixture {
	t.Helper()
	st := store.New(store.Options{Clock: time.Now})
	h := rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: time.Now})
	srv := httptest.NewServer(resthttp.New(h))
	t.Cleanup(srv.Close)
	if os.Getenv(frontEnv) != "" {
		srv.URL = serveFront(t, h)
	}
	f := &fixture{srv: srv, store: st, tr: &transport{inner: srv.Client()}}
	f.svc = f.client(t, rest.WellKnownKey)
	return f
}

// serveFront serves h through core/h1 on a free loopback port, every path
// taken by the front (net/http gets what it does not understand), and
// returns the server's URL.
func serveFront(t testing.TB, h rest.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var answered atomic.Int64
	front := &h1.Server{API: h, Takes: func(string) bool { return true }, Fallback: &http.Server{Handler: resthttp.New(h)},
		Log: func(string, string, int, time.Duration) { answered.Add(1) }}
	go front.Serve(ln)
	t.Cleanup(func() {
		front.Shutdown(context.Background())
		if answered.Load() == 0 {
			t.Error("the front answered no request itself")
		}
	})
	return "http://" + ln.Addr().String()
}

// TestSDKThroughTheFront runs the tests that drive the handler with the Go
// SDK (and raw clients) again, through the front.
func TestSDKThroughTheFront(t *testing.T) {
	t.Setenv(frontEnv, "1")
	for name, test := range map[string]func(*testing.T){
		"Tables": TestSDKTables, "Entities": TestSDKEntities, "Query": TestSDKQuery, "PagingOnTheWire": TestSDKPagingOnTheWire,
		"Transactions": TestSDKTransactions, "AuthFailures": TestSDKAuthFailures, "WholeBeforePart": TestSDKWholeBeforePart,
		"EmptyFilter": TestSDKEmptyFilter, "StatsOnTheSecondary": TestSDKStatsOnTheSecondary, "NewAccountProperties": TestSDKNewAccountProperties,
		"AccessPolicyWithoutTimes": TestSDKAccessPolicyWithoutTimes, "SASBatchParts": TestSASBatchPartsAuthorizedAsDirectRequests,
		"QueryPagesCappedInBytes": TestQueryPagesCappedInBytes, "AccountSAS": TestAccountSAS, "PreflightAndCORSHeaders": TestPreflightAndCORSHeaders,
		"SASKeyRanges": TestSASKeyRanges, "SASOverHTTPWhenHTTPSRequired": TestSASOverHTTPWhenHTTPSRequired, "SASPermissions": TestSASPermissions,
		"SASStoredPolicy": TestSASStoredPolicy, "SASTimesAndSignature": TestSASTimesAndSignature,
	} {
		t.Run(name, test)
	}
}

func (f *fixture) client(t testing.TB, key string) *aztables.ServiceClient {
	t.Helper()
	return sdktest.Service(t, f.srv.URL+"/"+rest.WellKnownAccount, rest.WellKnownAccount, key, f.tr)
}

// errCode returns the service error code and status of an SDK error.
func errCode(t testing.TB, err error) (string, int) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("not a ResponseError: %v", err)
	}
	return re.ErrorCode, re.StatusCode
}

func wantCode(t testing.TB, err error, code string, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	if c, s := errCode(t, err); c != code || s != status {
		t.Fatalf("error %s %d, want %s %d", c, s, code, status)
	}
}

var ctx = context.Background()

func TestSDKTables(t *testing.T) {
	f := newFixture(t)
	for _, n := range []string{"delta", "Alpha", "charlie", "Bravo", "echo"} {
		if _, err := f.svc.CreateTable(ctx, n, nil); err != nil {
			t.Fatalf("create %s: %v", n, err)
		}
	}
	_, err := f.svc.CreateTable(ctx, "ALPHA", nil)
	wantCode(t, err, "TableAlreadyExists", 409)
	_, err = f.svc.CreateTable(ctx, "bad-name", nil)
	wantCode(t, err, "InvalidResourceName", 400)

	list := func(opts *aztables.ListTablesOptions) ([]string, []int, []bool) {
		var names []string
		var sizes []int
		var more []bool
		p := f.svc.NewListTablesPager(opts)
		for p.More() {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range page.Tables {
				names = append(names, *tb.Name)
			}
			sizes = append(sizes, len(page.Tables))
			more = append(more, page.NextTableName != nil)
		}
		return names, sizes, more
	}
	names, _, _ := list(nil)
	if strings.Join(names, ",") != "Alpha,Bravo,charlie,delta,echo" {
		t.Errorf("list: %v", names)
	}
	names, sizes, more := list(&aztables.ListTablesOptions{Top: to.Ptr[int32](2)})
	if strings.Join(names, ",") != "Alpha,Bravo,charlie,delta,echo" || fmt.Sprint(sizes) != "[2 2 1]" || fmt.Sprint(more) != "[true true false]" {
		t.Errorf("paged list: %v %v %v", names, sizes, more)
	}
	names, _, _ = list(&aztables.ListTablesOptions{Filter: to.Ptr("TableName ge 'c' and TableName lt 'e'")})
	if strings.Join(names, ",") != "charlie,delta" {
		t.Errorf("filtered list: %v", names)
	}
	if _, err := f.svc.DeleteTable(ctx, "DELTA", nil); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.DeleteTable(ctx, "delta", nil)
	wantCode(t, err, "ResourceNotFound", 404)
	names, _, _ = list(nil)
	if strings.Join(names, ",") != "Alpha,Bravo,charlie,echo" {
		t.Errorf("after delete: %v", names)
	}
}

// allTypes is an entity with every Edm type, as the SDK writes them.
func allTypes(pk, rk string) aztables.EDMEntity {
	return aztables.EDMEntity{
		Entity: aztables.Entity{PartitionKey: pk, RowKey: rk},
		Properties: map[string]any{
			"Bool":     true,
			"Int32":    int32(42),
			"Int64":    aztables.EDMInt64(9223372036854775807),
			"Double":   3.25,
			"WholeDbl": float64(2), // the SDK writes 2: the service stores an Int32 (F-NUMBER-INFERENCE)
			"String":   "héllo 😀",
			"DateTime": aztables.EDMDateTime(time.Date(2013, 8, 2, 17, 37, 43, 9004300, time.UTC)),
			"Guid":     aztables.EDMGUID("4185404a-5818-48c3-b9be-f217df0dba6f"),
			"Binary":   aztables.EDMBinary([]byte("SomeBinary")),
			"OldDate":  aztables.EDMDateTime(time.Date(1601, 1, 1, 0, 0, 0, 0, time.UTC)),
		},
	}
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSDKEntities(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "things", nil)
	c := f.svc.NewClient("things")
	added, err := c.AddEntity(ctx, marshal(t, allTypes("p", "r")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(added.ETag), `W/"datetime'`) {
		t.Errorf("ETag %s", added.ETag)
	}
	_, err = c.AddEntity(ctx, marshal(t, allTypes("p", "r")), nil)
	wantCode(t, err, "EntityAlreadyExists", 409)

	for _, level := range []aztables.MetadataFormat{aztables.MetadataFormatMinimal, aztables.MetadataFormatFull, aztables.MetadataFormatNone} {
		got, err := c.GetEntity(ctx, "p", "r", &aztables.GetEntityOptions{Format: to.Ptr(level)})
		if err != nil {
			t.Fatal(err)
		}
		if got.ETag != added.ETag {
			t.Errorf("%s: ETag %s, want %s", level, got.ETag, added.ETag)
		}
		if level == aztables.MetadataFormatNone {
			continue // without annotations the SDK cannot tell the types apart
		}
		var e aztables.EDMEntity
		if err := json.Unmarshal(got.Value, &e); err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		p := e.Properties
		checks := map[string]any{
			"Bool": true, "Int32": int32(42), "Int64": aztables.EDMInt64(9223372036854775807), "Double": 3.25,
			"WholeDbl": int32(2), "String": "héllo 😀", "Guid": aztables.EDMGUID("4185404a-5818-48c3-b9be-f217df0dba6f"),
		}
		for k, want := range checks {
			if fmt.Sprintf("%T %v", p[k], p[k]) != fmt.Sprintf("%T %v", want, want) {
				t.Errorf("%s: %s = %T %v, want %T %v", level, k, p[k], p[k], want, want)
			}
		}
		if d, ok := p["DateTime"].(aztables.EDMDateTime); !ok || !time.Time(d).Equal(time.Date(2013, 8, 2, 17, 37, 43, 9004300, time.UTC)) {
			t.Errorf("%s: DateTime %v", level, p["DateTime"])
		}
		if b, ok := p["Binary"].(aztables.EDMBinary); !ok || string(b) != "SomeBinary" {
			t.Errorf("%s: Binary %v", level, p["Binary"])
		}
		if level == aztables.MetadataFormatFull && (e.Type != "devstoreaccount1.things" || !strings.HasSuffix(e.ID, "/devstoreaccount1/things(PartitionKey='p',RowKey='r')") || e.EditLink != "things(PartitionKey='p',RowKey='r')") {
			t.Errorf("full metadata: %q %q %q", e.Type, e.ID, e.EditLink)
		}
	}
	_, err = c.GetEntity(ctx, "p", "missing", nil)
	wantCode(t, err, "ResourceNotFound", 404)
	_, err = f.svc.NewClient("nothere").GetEntity(ctx, "p", "r", nil)
	wantCode(t, err, "TableNotFound", 404)

	props := func() map[string]any {
		got, err := c.GetEntity(ctx, "p", "r", nil)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(got.Value, &m)
		return m
	}
	// Merge with the current ETag keeps the other properties.
	merged, err := c.UpdateEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "r", "Extra": "x"}),
		&aztables.UpdateEntityOptions{IfMatch: &added.ETag, UpdateMode: aztables.UpdateModeMerge})
	if err != nil {
		t.Fatal(err)
	}
	if m := props(); m["Extra"] != "x" || m["Bool"] != true {
		t.Errorf("after merge: %v", m)
	}
	// The old ETag is stale now: 412, nothing changes.
	_, err = c.UpdateEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "r", "Lost": 1}),
		&aztables.UpdateEntityOptions{IfMatch: &added.ETag, UpdateMode: aztables.UpdateModeReplace})
	wantCode(t, err, "UpdateConditionNotSatisfied", 412)
	if _, ok := props()["Lost"]; ok {
		t.Error("a failed replace changed the entity")
	}
	// Replace with the current ETag drops the other properties.
	if _, err := c.UpdateEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "r", "Only": "one"}),
		&aztables.UpdateEntityOptions{IfMatch: &merged.ETag, UpdateMode: aztables.UpdateModeReplace}); err != nil {
		t.Fatal(err)
	}
	if m := props(); m["Only"] != "one" || m["Bool"] != nil {
		t.Errorf("after replace: %v", m)
	}
	// Update without an ETag (the SDK sends If-Match: *) of a missing entity: 404.
	_, err = c.UpdateEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "nope"}), nil)
	wantCode(t, err, "ResourceNotFound", 404)
	// Upserts create and then merge or replace.
	if _, err := c.UpsertEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "u", "A": "1"}), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "u", "B": "2"}), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "v", "A": "1"}), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "v", "B": "2"}), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace}); err != nil {
		t.Fatal(err)
	}
	u, _ := c.GetEntity(ctx, "p", "u", nil)
	v, _ := c.GetEntity(ctx, "p", "v", nil)
	if !strings.Contains(string(u.Value), `"A":"1","B":"2"`) || strings.Contains(string(v.Value), `"A"`) || !strings.Contains(string(v.Value), `"B":"2"`) {
		t.Errorf("upserts: %s / %s", u.Value, v.Value)
	}
	// Delete with a stale ETag fails, with the current one succeeds.
	_, err = c.DeleteEntity(ctx, "p", "u", &aztables.DeleteEntityOptions{IfMatch: &added.ETag})
	wantCode(t, err, "UpdateConditionNotSatisfied", 412)
	if _, err := c.DeleteEntity(ctx, "p", "u", &aztables.DeleteEntityOptions{IfMatch: &u.ETag}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteEntity(ctx, "p", "u", nil)
	wantCode(t, err, "ResourceNotFound", 404)
	// Invalid entities get the service's codes.
	_, err = c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r2","bad-name":1}`), nil)
	wantCode(t, err, "PropertyNameInvalid", 400)
	_, err = c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"a/b"}`), nil)
	wantCode(t, err, "OutOfRangeInput", 400)
}

func fillPartition(t testing.TB, c *aztables.Client, pk string, n int) {
	t.Helper()
	for start := 0; start < n; start += 100 {
		var actions []aztables.TransactionAction
		for i := start; i < start+100 && i < n; i++ {
			actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd,
				Entity: marshal(t, map[string]any{"PartitionKey": pk, "RowKey": fmt.Sprintf("%06d", i), "N": i, "Even": i%2 == 0})})
		}
		if _, err := c.SubmitTransaction(ctx, actions, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSDKQuery(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "query", nil)
	c := f.svc.NewClient("query")
	fillPartition(t, c, "a", 30)
	fillPartition(t, c, "b", 30)
	p := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{
		Filter: to.Ptr("PartitionKey eq 'b' and N ge 10 and Even"),
		Select: to.Ptr("RowKey,N,Missing"),
		Top:    to.Ptr[int32](4),
	})
	var rows []string
	var sizes []int
	for p.More() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(page.Entities))
		for _, e := range page.Entities {
			var m map[string]any
			json.Unmarshal(e, &m)
			if _, ok := m["Missing"]; !ok || m["Missing"] != nil || m["PartitionKey"] != nil || m["Even"] != nil {
				t.Errorf("projection: %s", e)
			}
			rows = append(rows, m["RowKey"].(string)+"="+strconv.Itoa(int(m["N"].(float64))))
		}
	}
	if fmt.Sprint(sizes) != "[4 4 2]" || len(rows) != 10 || rows[0] != "000010=10" || rows[9] != "000028=28" {
		t.Errorf("pages %v rows %v", sizes, rows)
	}
	bad := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("aaa bbb ccc")})
	_, err := bad.NextPage(ctx)
	wantCode(t, err, "InvalidInput", 400)
	var re *azcore.ResponseError
	errors.As(err, &re)
	if !strings.Contains(re.Error(), "Syntax error at position 7 in 'aaa bbb ccc'.") {
		t.Errorf("message: %v", re)
	}
}

// TestSDKPagingOnTheWire checks page sizes and continuation headers as they
// travel, not only what the pager assembles.
func TestSDKPagingOnTheWire(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "paging", nil)
	c := f.svc.NewClient("paging")
	fillPartition(t, c, "p", 2500)
	type seen struct {
		count    int
		pk, rk   string
		queryTok string
	}
	var wire []seen
	f.tr.after = func(r *http.Response) {
		if r.Request.Method != http.MethodGet {
			return
		}
		var body struct {
			Value []json.RawMessage `json:"value"`
		}
		b, _ := readAndRestore(r)
		json.Unmarshal(b, &body)
		wire = append(wire, seen{len(body.Value), r.Header.Get("x-ms-continuation-NextPartitionKey"), r.Header.Get("x-ms-continuation-NextRowKey"), r.Request.URL.Query().Get("NextRowKey")})
	}
	walk := func(opts *aztables.ListEntitiesOptions) int {
		wire = nil
		total := 0
		p := c.NewListEntitiesPager(opts)
		for i := 0; p.More() && i < 100; i++ {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			total += len(page.Entities)
		}
		return total
	}
	if n := walk(nil); n != 2500 || len(wire) != 3 {
		t.Fatalf("%d entities in %d requests", n, len(wire))
	}
	for i, want := range []seen{
		{1000, "1!4!cA--", "1!8!MDAxMDAw", ""},
		{1000, "1!4!cA--", "1!8!MDAyMDAw", "1!8!MDAxMDAw"},
		{500, "", "", "1!8!MDAyMDAw"},
	} {
		if wire[i] != want {
			t.Errorf("page %d on the wire: %+v, want %+v", i, wire[i], want)
		}
	}
	if n := walk(&aztables.ListEntitiesOptions{Top: to.Ptr[int32](300), Filter: to.Ptr("N lt 700")}); n != 700 {
		t.Fatalf("$top walk: %d", n)
	}
	var counts []int
	for _, w := range wire {
		counts = append(counts, w.count)
	}
	if fmt.Sprint(counts) != "[300 300 100]" || wire[2].pk != "" || wire[0].rk != "1!8!MDAwMzAw" {
		t.Errorf("$top pages %v %+v", counts, wire)
	}
}

func TestSDKTransactions(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "batch", nil)
	c := f.svc.NewClient("batch")
	ent := func(rk string, extra ...any) []byte {
		m := map[string]any{"PartitionKey": "p", "RowKey": rk}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return marshal(t, m)
	}
	if _, err := c.AddEntity(ctx, ent("existing", "V", 1), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddEntity(ctx, ent("gone", "V", 1), nil); err != nil {
		t.Fatal(err)
	}
	ok := []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeAdd, Entity: ent("new", "V", 1)},
		{ActionType: aztables.TransactionTypeUpdateMerge, Entity: ent("existing", "W", 2)},
		{ActionType: aztables.TransactionTypeDelete, Entity: ent("gone")},
		{ActionType: aztables.TransactionTypeInsertReplace, Entity: ent("upsert1", "X", 3)},
		{ActionType: aztables.TransactionTypeInsertMerge, Entity: ent("upsert2", "Y", 4)},
	}
	if _, err := c.SubmitTransaction(ctx, ok, nil); err != nil {
		t.Fatal(err)
	}
	if n, _ := f.store.Count("batch"); n != 4 {
		t.Errorf("after the transaction %d entities, want 4", n)
	}
	e, _ := c.GetEntity(ctx, "p", "existing", nil)
	if !strings.Contains(string(e.Value), `"V":1,"W":2`) {
		t.Errorf("merged in a transaction: %s", e.Value)
	}
	before := string(f.store.Snapshot())
	for _, tc := range []struct {
		name    string
		actions []aztables.TransactionAction
		status  int
		code    string
		message string
	}{
		{"duplicate insert at index 2", []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeAdd, Entity: ent("a1")},
			{ActionType: aztables.TransactionTypeAdd, Entity: ent("a2")},
			{ActionType: aztables.TransactionTypeAdd, Entity: ent("existing")},
		}, 409, "EntityAlreadyExists", "2:The specified entity already exists."},
		{"update of a missing entity, alone", []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeUpdateReplace, Entity: ent("nope"), IfMatch: to.Ptr(azcore.ETagAny)},
		}, 404, "ResourceNotFound", "The specified resource does not exist."},
		{"two partitions", []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeAdd, Entity: ent("b1")},
			{ActionType: aztables.TransactionTypeAdd, Entity: marshal(t, map[string]any{"PartitionKey": "q", "RowKey": "b2"})},
		}, 400, "CommandsInBatchActOnDifferentPartitions", "1:All commands in a batch must operate on same entity group."},
		{"same entity twice", []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeAdd, Entity: ent("c1")},
			{ActionType: aztables.TransactionTypeUpdateMerge, Entity: ent("c1")},
		}, 400, "InvalidDuplicateRow", "1:The batch request contains multiple changes with same row key."},
	} {
		_, err := c.SubmitTransaction(ctx, tc.actions, nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The SDK reports the whole 202 batch response; the part inside carries
		// the failing operation's status and error.
		body, _ := readAndRestore(re.RawResponse)
		if re.StatusCode != 202 || !strings.Contains(string(body), "HTTP/1.1 "+strconv.Itoa(tc.status)+" ") ||
			!strings.Contains(string(body), `"code":"`+tc.code+`"`) || !strings.Contains(string(body), `"value":"`+tc.message) {
			t.Errorf("%s: %d\n%s", tc.name, re.StatusCode, body)
		}
		if after := string(f.store.Snapshot()); after != before {
			t.Errorf("%s: the store changed", tc.name)
		}
	}
}

func TestSDKAuthFailures(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.CreateTable(ctx, "auth", nil); err != nil {
		t.Fatal(err)
	}
	wrong := f.client(t, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==")
	_, err := wrong.CreateTable(ctx, "other", nil)
	wantCode(t, err, "AuthenticationFailed", 403)

	tamper := []struct {
		name string
		edit func(*http.Request)
	}{
		{"path", func(r *http.Request) { r.URL.Path = strings.Replace(r.URL.Path, "auth", "autx", 1); r.URL.RawPath = "" }},
		{"date", func(r *http.Request) {
			d, _ := http.ParseTime(r.Header.Get("x-ms-date"))
			r.Header.Set("x-ms-date", d.Add(time.Second).UTC().Format(http.TimeFormat))
		}},
		{"missing date", func(r *http.Request) { r.Header.Del("x-ms-date") }},
		{"old date", func(r *http.Request) {
			// A request signed for a time 20 minutes ago: a valid signature
			// outside the service's window.
			r.Header.Set("x-ms-date", time.Now().Add(-20*time.Minute).UTC().Format(http.TimeFormat))
			u := *r.URL
			r.Header.Set("Authorization", rest.WellKnown().Sign(r.Header.Get("x-ms-date"), &u))
		}},
		{"no Authorization", func(r *http.Request) { r.Header.Del("Authorization") }},
	}
	for _, tc := range tamper {
		f.tr.before = tc.edit
		_, err := f.svc.NewClient("auth").GetEntity(ctx, "p", "r", nil)
		f.tr.before = nil
		if c, s := errCode(t, err); c != "AuthenticationFailed" || s != 403 {
			t.Errorf("%s: %s %d", tc.name, c, s)
		}
	}
	// The same request untampered is authenticated (and finds nothing).
	_, err = f.svc.NewClient("auth").GetEntity(ctx, "p", "r", nil)
	wantCode(t, err, "ResourceNotFound", 404)
}
