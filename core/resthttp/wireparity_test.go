package resthttp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// TestServeMatchesTheWire: what a real net/http server drops on the wire
// (the body of a HEAD answer) the in-process answer drops too.
func TestServeMatchesTheWire(t *testing.T) {
	a := testHandler(store.New(store.Options{}))
	srv := httptest.NewServer(resthttp.New(testHandler(store.New(store.Options{}))))
	defer srv.Close()
	for _, c := range []rest.Call{
		{Method: "HEAD", URL: "/devstoreaccount1/Tables", Headers: [][2]string{{"Accept", "application/json"}}},
		{Method: "HEAD", URL: "/devstoreaccount1/Missing()", Headers: [][2]string{{"Accept", "application/json;odata=nometadata"}}},
	} {
		req, err := http.NewRequest(c.Method, srv.URL+c.URL, strings.NewReader(c.Body))
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range c.Headers {
			req.Header.Set(kv[0], kv[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		c.URL = "http://127.0.0.1:10002" + c.URL
		got := a.Serve(c)
		if got.Status != resp.StatusCode || got.Body != string(body) {
			t.Errorf("%s %s: Serve %d %q, the wire %d %q", c.Method, c.URL, got.Status, got.Body, resp.StatusCode, body)
		}
		cl := ""
		for _, kv := range got.Headers {
			if kv[0] == "Content-Length" {
				cl = kv[1]
			}
		}
		if want := resp.Header.Get("Content-Length"); cl != want {
			t.Errorf("%s %s: Content-Length %q in process, %q on the wire", c.Method, c.URL, cl, want)
		}
	}
}
