package resthttp_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

func testHandler(st *store.Store) *rest.Handler {
	clock := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	creds.TrustUnsigned = true // these requests stand for signed ones
	return rest.New(rest.Options{Store: st, Credentials: creds, Clock: clock, RequestID: func() string { return "id" }})
}

// TestServeMatchesServeHTTP: a Call answered in process gets the status,
// headers and body the same request gets through the net/http adapter, and a URL that
// cannot be a request is a 400, not a panic.
func TestServeMatchesServeHTTP(t *testing.T) {
	calls := []rest.Call{
		{Method: "POST", URL: "http://127.0.0.1:10002/devstoreaccount1/Tables", Body: `{"TableName":"Lessons"}`,
			Headers: [][2]string{{"Accept", "application/json;odata=nometadata"}, {"Content-Type", "application/json"}, {"Content-Length", "999"}}},
		{Method: "POST", URL: "http://127.0.0.1:10002/devstoreaccount1/Lessons", Body: `{"PartitionKey":"p","RowKey":"r","N":1}`,
			Headers: [][2]string{{"Accept", "application/json;odata=fullmetadata"}, {"Content-Type", "application/json"}}},
		{Method: "GET", URL: "http://127.0.0.1:10002/devstoreaccount1/Lessons(PartitionKey='p',RowKey='nope')",
			Headers: [][2]string{{"Accept", "application/json"}}},
	}
	// Two accounts on identical clocks, so ETags agree.
	clock := func() func() time.Time {
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		return func() time.Time { now = now.Add(time.Millisecond); return now }
	}
	a := testHandler(store.New(store.Options{Clock: clock()}))
	b := testHandler(store.New(store.Options{Clock: clock()}))
	for _, c := range calls {
		got := a.Serve(c)
		req := httptest.NewRequest(c.Method, c.URL, strings.NewReader(c.Body))
		for _, kv := range c.Headers {
			if kv[0] != "Content-Length" {
				req.Header.Add(kv[0], kv[1])
			}
		}
		rec := httptest.NewRecorder()
		resthttp.New(b).ServeHTTP(rec, req)
		if got.Status != rec.Code || got.Body != rec.Body.String() {
			t.Errorf("%s %s: Serve %d %s, ServeHTTP %d %s", c.Method, c.URL, got.Status, got.Body, rec.Code, rec.Body)
		}
		for _, kv := range got.Headers {
			if k := kv[0]; k != "Date" && rec.Header().Get(k) != kv[1] {
				t.Errorf("%s: header %s = %q, ServeHTTP %q", c.URL, k, kv[1], rec.Header().Get(k))
			}
		}
		want := 0
		for _, vs := range rec.Header() {
			want += len(vs)
		}
		if len(got.Headers) != want || got.StatusText == "" {
			t.Errorf("%s: no headers or status text: %+v", c.URL, got)
		}
	}
	if r := a.Serve(rest.Call{Method: "GET", URL: "http://[::1"}); r.Status != 400 {
		t.Errorf("a broken URL: %+v", r)
	}
}
