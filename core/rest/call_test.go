package rest

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/store"
)

// TestServeMatchesServeHTTP: a Call answered in process gets the status,
// headers and body the same request gets through ServeHTTP, and a URL that
// cannot be a request is a 400, not a panic.
func TestServeMatchesServeHTTP(t *testing.T) {
	calls := []Call{
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
		b.ServeHTTP(rec, req)
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
	if r := a.Serve(Call{Method: "GET", URL: "http://[::1"}); r.Status != 400 {
		t.Errorf("a broken URL: %+v", r)
	}
}
