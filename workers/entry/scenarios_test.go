package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// What a client of the entry sees, run against the entry in process
// (entry_test.go, before contract-following objects) and as deployed
// (workerd_test.go, in workerd before the real objects).

// createRoom posts /rooms at base with an options body and decodes the
// answer, which any origin may read.
func createRoom(t testing.TB, base, body string) room {
	t.Helper()
	resp, err := http.Post(base+"/rooms", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("POST /rooms: %d %v %s", resp.StatusCode, resp.Header, b)
	}
	var r room
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// linkSAS returns the endpoint and SAS a room link carries.
func linkSAS(t testing.TB, link string) (endpoint, sas string) {
	t.Helper()
	_, frag, ok := strings.Cut(link, "#")
	q, err := url.ParseQuery(frag)
	if !ok || err != nil || q.Get("connect") == "" || q.Get("sas") == "" {
		t.Fatalf("link %q carries no endpoint and SAS", link)
	}
	// The endpoint may be a path on the link's own origin.
	base, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	at, err := base.Parse(q.Get("connect"))
	if err != nil {
		t.Fatal(err)
	}
	return at.String(), q.Get("sas")
}

// statusCode is the HTTP status and service code of an SDK error.
func statusCode(err error) (int, string) {
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		return 0, ""
	}
	return re.StatusCode, re.ErrorCode
}

// checkAnswer checks POST /rooms' answer: the endpoint at base, the
// connection string the SDKs take, links, an expiry idle from now.
func checkAnswer(t *testing.T, base string, r room, idle time.Duration) {
	t.Helper()
	if _, ok := roomOf(r.Account); !ok {
		t.Fatalf("account %q is not a room name", r.Account)
	}
	if r.Endpoint != base+"/"+r.Account {
		t.Fatalf("endpoint %q", r.Endpoint)
	}
	want := "DefaultEndpointsProtocol=http;AccountName=" + r.Account + ";AccountKey=" + r.Key + ";TableEndpoint=" + r.Endpoint + ";"
	if r.ConnectionString != want {
		t.Fatalf("connection string %q, want %q", r.ConnectionString, want)
	}
	linkSAS(t, r.ReadLink)
	linkSAS(t, r.WriteLink)
	if exp, err := time.Parse(time.RFC3339, r.Expires); err != nil || time.Until(exp) < idle-time.Minute || time.Until(exp) > idle {
		t.Fatalf("expires %q, want %v from now", r.Expires, idle)
	}
	if r.IdleSeconds != int64(idle/time.Second) {
		t.Fatalf("idleSeconds %d, want %v", r.IdleSeconds, idle)
	}
}

// useRoom drives a room with the Go SDK through its connection string:
// a table, an entity with an Int64 past 2^53, a filtered query.
func useRoom(t *testing.T, r room) {
	t.Helper()
	svc, err := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "people", nil); err != nil {
		t.Fatal(err)
	}
	tc := svc.NewClient("people")
	if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","Name":"Ada","Big":"9007199254740993","Big@odata.type":"Edm.Int64"}`), nil); err != nil {
		t.Fatal(err)
	}
	f := "Big eq 9007199254740993L"
	page, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &f}).NextPage(ctx)
	if err != nil || len(page.Entities) != 1 || !strings.Contains(string(page.Entities[0]), `"Name":"Ada"`) {
		t.Fatalf("query: %v %q", err, page.Entities)
	}
	// A batch (a multipart body both ways) is whole: three rows, then a
	// failing one that takes its companion back with it.
	batch := func(rks ...string) error {
		var actions []aztables.TransactionAction
		for _, rk := range rks {
			actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd,
				Entity: []byte(`{"PartitionKey":"b","RowKey":"` + rk + `"}`)})
		}
		_, err := tc.SubmitTransaction(ctx, actions, nil)
		return err
	}
	if err := batch("1", "2", "3"); err != nil {
		t.Fatalf("a batch of three: %v", err)
	}
	if err := batch("4", "1"); err == nil {
		t.Fatal("a batch adding an existing row succeeded")
	}
	if _, err := tc.GetEntity(ctx, "b", "4", nil); err == nil {
		t.Fatal("a failed batch left a row behind")
	}
}

// checkLinks: the write link writes, the read link reads and neither
// writes nor deletes (403 AuthorizationPermissionMismatch, as the service).
func checkLinks(t *testing.T, r room) {
	t.Helper()
	ctx := context.Background()
	owner, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	if _, err := owner.CreateTable(ctx, "notes", nil); err != nil {
		t.Fatal(err)
	}
	client := func(link string) *aztables.Client {
		endpoint, sas := linkSAS(t, link)
		svc, err := aztables.NewServiceClientWithNoCredential(endpoint+"?"+sas, nil)
		if err != nil {
			t.Fatal(err)
		}
		return svc.NewClient("notes")
	}
	writer, reader := client(r.WriteLink), client(r.ReadLink)
	if _, err := writer.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1"}`), nil); err != nil {
		t.Fatalf("the write link cannot write: %v", err)
	}
	if _, err := reader.GetEntity(ctx, "p", "1", nil); err != nil {
		t.Fatalf("the read link cannot read: %v", err)
	}
	_, err := reader.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"2"}`), nil)
	if status, code := statusCode(err); status != 403 || code != "AuthorizationPermissionMismatch" {
		t.Fatalf("the read link wrote: %v", err)
	}
	_, err = reader.DeleteEntity(ctx, "p", "1", nil)
	if status, code := statusCode(err); status != 403 || code != "AuthorizationPermissionMismatch" {
		t.Fatalf("the read link deleted: %v", err)
	}
}

// checkIsolation: room A's key (with A's name or B's) and A's SAS links
// neither read nor write room B (403 AuthenticationFailed).
func checkIsolation(t *testing.T, a, b room) {
	t.Helper()
	if a.Account == b.Account || a.Key == b.Key {
		t.Fatalf("two rooms share a name or a key: %+v %+v", a, b)
	}
	ctx := context.Background()
	bOwner, _ := aztables.NewServiceClientFromConnectionString(b.ConnectionString, nil)
	if _, err := bOwner.CreateTable(ctx, "secrets", nil); err != nil {
		t.Fatal(err)
	}
	tries := map[string]*aztables.ServiceClient{}
	tries["A's key at B's endpoint"], _ = aztables.NewServiceClientFromConnectionString(strings.Replace(a.ConnectionString, a.Endpoint, b.Endpoint, 1), nil)
	tries["B's name with A's key"], _ = aztables.NewServiceClientFromConnectionString(strings.Replace(b.ConnectionString, b.Key, a.Key, 1), nil)
	for name, link := range map[string]string{"read": a.ReadLink, "write": a.WriteLink} {
		_, sas := linkSAS(t, link)
		tries["A's "+name+" SAS at B"], _ = aztables.NewServiceClientWithNoCredential(b.Endpoint+"?"+sas, nil)
	}
	for name, svc := range tries {
		_, err := svc.NewClient("secrets").NewListEntitiesPager(nil).NextPage(ctx)
		if status, code := statusCode(err); status != 403 || code != "AuthenticationFailed" {
			t.Errorf("%s read B: %v", name, err)
		}
		_, err = svc.NewClient("secrets").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"x"}`), nil)
		if status, code := statusCode(err); status != 403 || code != "AuthenticationFailed" {
			t.Errorf("%s wrote B: %v", name, err)
		}
	}
}

// checkPreflights: a page on another origin may create a room, and its
// preflights to the room are the engine's, by the rule the entry set. The
// engine echoes the requested headers, so the list (with its commas) and
// the Date come back with their bytes.
func checkPreflights(t *testing.T, base string, r room) {
	t.Helper()
	preflight := func(path string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", base+path, nil)
		req.Header.Set("Origin", "https://elsewhere.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,x-ms-version,authorization")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := preflight("/rooms")
	if resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		resp.Header.Get("Access-Control-Allow-Headers") != "content-type,x-ms-version,authorization" {
		t.Fatalf("preflight of /rooms: %d %v", resp.StatusCode, resp.Header)
	}
	resp = preflight("/" + r.Account + "/Tables")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("X-Ms-Request-Id") == "" ||
		!slices.Equal(resp.Header["Access-Control-Allow-Headers"], []string{"content-type,x-ms-version,authorization"}) ||
		len(resp.Header["Date"]) != 1 {
		t.Fatalf("preflight of a room: %d %v", resp.StatusCode, resp.Header)
	}
	if _, err := time.Parse(http.TimeFormat, resp.Header.Get("Date")); err != nil {
		t.Fatalf("the room's Date: %v", err)
	}
	// The answer itself carries the CORS header the page needs.
	_, sas := linkSAS(t, r.ReadLink)
	req, _ := http.NewRequest("GET", r.Endpoint+"/Tables?"+sas, nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	req.Header.Set("Accept", "application/json;odata=nometadata")
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got.Body.Close()
	if got.StatusCode != 200 || got.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("a read from another origin: %d %v", got.StatusCode, got.Header)
	}
}
