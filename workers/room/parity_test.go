//go:build unix

package room_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
	"github.com/tableplay/tableplay/internal/transcript"
)

// serveNative serves an account through the native server's front (core/h1
// over core/rest, as tableplay serve does) on a free loopback port, with
// the room's name and key, and returns its base URL.
func serveNative(t testing.TB, account, key string, clock func() time.Time) string {
	t.Helper()
	k, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		t.Fatal(err)
	}
	h := rest.New(rest.Options{Store: store.New(store.Options{Clock: clock}), Credentials: rest.Credentials{Account: account, Key: k}, Clock: clock})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	front := &h1.Server{API: h, Takes: func(string) bool { return true }, Fallback: &http.Server{Handler: resthttp.New(h)}}
	go front.Serve(ln)
	t.Cleanup(func() { front.Shutdown(context.Background()) })
	return "http://" + ln.Addr().String()
}

// recorder keeps every exchange an SDK client makes, rendered as text;
// with now set, it hands the room that request clock.
type recorder struct {
	inner     *http.Client
	now       time.Time
	mu        sync.Mutex
	exchanges []string
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	if !r.now.IsZero() {
		req.Header.Set("X-Tableplay-Room-Now", strconv.FormatInt(r.now.UnixMilli(), 10))
	}
	resp, err := r.inner.Do(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exchanges = append(r.exchanges, render(req.Method+" "+req.URL.Path, resp, body))
	return resp, nil
}

// render writes what was asked and its answer as the golden transcripts
// hold answers.
func render(what string, r *http.Response, body []byte) string {
	return what + "\n" + transcript.Response(r, body)
}

// What differs between two runs of the same requests at the same clock:
// the host and the random ids (request ids, also in error bodies, the SDK's
// client request ids, batch boundaries). Both sides run on one fixed clock,
// so Date, ETags and Timestamps are compared as they are.
var maskGUID = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

func normalize(s, host string) string {
	s = strings.ReplaceAll(s, host, "{host}")
	return maskGUID.ReplaceAllString(s, "{guid}")
}

// sdkClient is the Go SDK on an account at base, its exchanges recorded.
func sdkClient(t testing.TB, base, account, key string, rec *recorder) *aztables.ServiceClient {
	t.Helper()
	return sdktest.Service(t, base+"/"+account, account, key, rec)
}

// sdkScenario drives an account with the Go SDK through the operations a
// class or a reader's program uses, and checks what only a working engine
// answers (a stale ETag's 412, a failed batch rolled back, Int64 kept
// exactly, paging); it returns the statuses of the calls that failed.
func sdkScenario(t *testing.T, svc *aztables.ServiceClient, account string, rec *recorder) []int {
	t.Helper()
	ctx := context.Background()
	var failures []int
	expectErr := func(err error, status int) {
		t.Helper()
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != status {
			t.Fatalf("want a %d answer, got %v", status, err)
		}
		failures = append(failures, re.StatusCode)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.CreateTable(ctx, "people", nil); err != nil {
		t.Fatal(err)
	}
	_, err := svc.CreateTable(ctx, "people", nil)
	expectErr(err, 409)
	tc := svc.NewClient("people")
	for i := 0; i < 5; i++ {
		e := aztables.EDMEntity{
			Entity: aztables.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("r%d", i)},
			Properties: map[string]any{
				"Big":   aztables.EDMInt64(1<<53 + 1),
				"Name":  fmt.Sprintf("n%d", i),
				"When":  aztables.EDMDateTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
				"Ratio": 0.1 * float64(i),
				"Id":    aztables.EDMGUID("0b0e3c4a-1d2e-4f50-8a9b-0c1d2e3f4a5b"),
				"Blob":  aztables.EDMBinary([]byte{0, 1, 2, byte(i)}),
				"Ok":    i%2 == 0,
			},
		}
		b, _ := e.MarshalJSON()
		_, err := tc.AddEntity(ctx, b, nil)
		must(err)
	}
	got, err := tc.GetEntity(ctx, "p", "r1", nil)
	must(err)
	var back aztables.EDMEntity
	must(back.UnmarshalJSON(got.Value))
	if v := back.Properties["Big"]; v != aztables.EDMInt64(1<<53+1) {
		t.Fatalf("Int64 came back as %v", v)
	}
	// The filter on the Int64 matches exactly 2^53+1, not 2^53.
	pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("Big eq 9007199254740993L"), Top: to.Ptr(int32(2))})
	n := 0
	for pages := 0; pager.More(); pages++ {
		if pages == 10 {
			t.Fatal("more than 10 pages of 2 for 5 entities")
		}
		page, err := pager.NextPage(ctx)
		must(err)
		n += len(page.Entities)
	}
	if n != 5 {
		t.Fatalf("the Int64 filter found %d entities over pages of 2, want 5", n)
	}
	patch, _ := aztables.EDMEntity{Entity: aztables.Entity{PartitionKey: "p", RowKey: "r1"}, Properties: map[string]any{"Name": "changed"}}.MarshalJSON()
	_, err = tc.UpdateEntity(ctx, patch, &aztables.UpdateEntityOptions{IfMatch: &got.ETag, UpdateMode: aztables.UpdateModeMerge})
	must(err)
	_, err = tc.UpdateEntity(ctx, patch, &aztables.UpdateEntityOptions{IfMatch: &got.ETag, UpdateMode: aztables.UpdateModeReplace})
	expectErr(err, 412)
	_, err = tc.UpsertEntity(ctx, patch, &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace})
	must(err)
	// A batch of three inserts succeeds whole; one that inserts an existing
	// row fails whole, its other inserts rolled back.
	batch := func(keys ...string) []aztables.TransactionAction {
		var acts []aztables.TransactionAction
		for _, k := range keys {
			b, _ := aztables.EDMEntity{Entity: aztables.Entity{PartitionKey: "b", RowKey: k}, Properties: map[string]any{"V": k}}.MarshalJSON()
			acts = append(acts, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: b})
		}
		return acts
	}
	_, err = tc.SubmitTransaction(ctx, batch("x1", "x2", "x3"), nil)
	must(err)
	_, err = tc.SubmitTransaction(ctx, batch("y1", "x2", "y3"), nil)
	if err == nil || !strings.Contains(err.Error(), "HTTP/1.1 409 Conflict") || !strings.Contains(err.Error(), "EntityAlreadyExists") {
		t.Fatalf("want the batch's 409 EntityAlreadyExists, got %v", err)
	}
	if _, err := tc.GetEntity(ctx, "b", "y1", nil); err == nil {
		t.Fatal("the failed batch's first insert is there")
	} else {
		expectErr(err, 404)
	}
	_, err = tc.DeleteEntity(ctx, "p", "r4", nil)
	must(err)
	// A read-only SAS for the table reads and cannot write.
	sas, err := tc.GetTableSASURL(aztables.SASPermissions{Read: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	must(err)
	// The SDK joins a path-style endpoint and the table without a slash.
	sasURL := strings.Replace(sas, "/"+account+"people?", "/"+account+"/people?", 1)
	ro, err := aztables.NewClientWithNoCredential(sasURL, sdktest.Options(rec))
	must(err)
	_, err = ro.GetEntity(ctx, "p", "r0", nil)
	must(err)
	_, err = ro.DeleteEntity(ctx, "p", "r0", nil)
	expectErr(err, 403)
	// Three more tables, listed two to a page (a continuation).
	for _, name := range []string{"alpha", "beta", "gamma"} {
		_, err := svc.CreateTable(ctx, name, nil)
		must(err)
	}
	tables := svc.NewListTablesPager(&aztables.ListTablesOptions{Top: to.Ptr(int32(2))})
	listed := 0
	for pages := 0; tables.More() && pages < 10; pages++ {
		page, err := tables.NextPage(ctx)
		must(err)
		listed += len(page.Tables)
	}
	if listed != 4 {
		t.Fatalf("listed %d tables, want 4", listed)
	}
	// $select of two properties; a delete with a stale ETag is refused.
	sel := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("PartitionKey eq 'p' and Ok eq true"), Select: to.Ptr("Name,Big")})
	for pages := 0; sel.More() && pages < 10; pages++ {
		_, err := sel.NextPage(ctx)
		must(err)
	}
	_, err = tc.DeleteEntity(ctx, "p", "r1", &aztables.DeleteEntityOptions{IfMatch: &got.ETag})
	expectErr(err, 412)
	_, err = tc.UpsertEntity(ctx, patch, &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge})
	must(err)
	// Service properties with a CORS rule, read back.
	_, err = svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{{AllowedOrigins: to.Ptr("https://class.example"), AllowedMethods: to.Ptr("GET,PUT"), AllowedHeaders: to.Ptr("*"), ExposedHeaders: to.Ptr("*"), MaxAgeInSeconds: to.Ptr(int32(60))}}}, nil)
	must(err)
	_, err = svc.GetProperties(ctx, nil)
	must(err)
	// An account SAS that lists tables: the SDK signs it for https only,
	// so over http it is refused.
	accountSAS, err := svc.GetAccountSASURL(aztables.AccountSASResourceTypes{Service: true, Container: true}, aztables.AccountSASPermissions{Read: true, List: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	must(err)
	viaAccountSAS, err := aztables.NewServiceClientWithNoCredential(accountSAS, sdktest.Options(rec))
	must(err)
	_, err = viaAccountSAS.NewListTablesPager(nil).NextPage(ctx)
	expectErr(err, 403)
	_, err = tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{{ID: to.Ptr("read"), AccessPolicy: &aztables.AccessPolicy{Permission: to.Ptr("r"), Start: to.Ptr(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), Expiry: to.Ptr(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC))}}}})
	must(err)
	_, err = tc.GetAccessPolicy(ctx, nil)
	must(err)
	_, err = svc.GetProperties(ctx, nil)
	must(err)
	_, err = svc.DeleteTable(ctx, "people", nil)
	must(err)
	_, err = tc.GetEntity(ctx, "p", "r0", nil)
	expectErr(err, 404)
	return failures
}

// TestRoomSDKParity runs the Go SDK scenario against a room through
// workerd and against the native server with the same account and key:
// every answer is the same, status, headers and body, byte for byte once
// the host, times and ids are masked.
func TestRoomSDKParity(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(nil)
	at := time.Now().Truncate(time.Millisecond)
	native := serveNative(t, r.Account, r.Key, func() time.Time { return at })
	roomRec, nativeRec := recorder{inner: &http.Client{}, now: at}, recorder{inner: &http.Client{}}
	roomFails := sdkScenario(t, sdkClient(t, w.url(), r.Account, r.Key, &roomRec), r.Account, &roomRec)
	nativeFails := sdkScenario(t, sdkClient(t, native, r.Account, r.Key, &nativeRec), r.Account, &nativeRec)
	if fmt.Sprint(roomFails) != fmt.Sprint(nativeFails) {
		t.Fatalf("failed calls: room %v, native %v", roomFails, nativeFails)
	}
	compareExchanges(t, roomRec.exchanges, nativeRec.exchanges, strings.TrimPrefix(w.url(), "http://"), strings.TrimPrefix(native, "http://"))
	t.Logf("%d SDK exchanges the same through workerd as natively", len(roomRec.exchanges))
}

// compareExchanges fails on the first answer that differs once masked.
func compareExchanges(t *testing.T, room, native []string, roomHost, nativeHost string) {
	t.Helper()
	if len(room) != len(native) || len(room) == 0 {
		t.Fatalf("%d exchanges through the room, %d natively", len(room), len(native))
	}
	for i := range room {
		a, b := normalize(room[i], roomHost), normalize(native[i], nativeHost)
		if a != b {
			t.Errorf("exchange %d differs:\n--- room\n%s\n--- native\n%s", i+1, a, b)
		}
	}
}
