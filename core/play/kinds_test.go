package play

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// TestEncodeFollowsEveryRow walks the table of kinds: the SDK-shaped
// request of each kind the page sends has its row's verb (PATCH for MERGE,
// as the SDK), If-Match exactly when the row is conditional, a JSON body
// exactly when the row decodes one, and the engine carries it out; the XML
// endpoints, $batch (built elsewhere) and a kind without a row are refused.
func TestEncodeFollowsEveryRow(t *testing.T) {
	for _, k := range append(op.Kinds(), op.Kind(255)) {
		s := k.Spec()
		st := store.New(store.Options{Clock: time.Now})
		a := newAPI("http://127.0.0.1:10002/devstoreaccount1")
		a.Clock = time.Now
		if _, err := st.CreateTable("Kinds"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply("Kinds", store.Op{Kind: store.Insert, Entity: &entity.Entity{PartitionKey: "p", RowKey: "r"}}); err != nil {
			t.Fatal(err)
		}
		o := op.Operation{Kind: k, Table: "Kinds", IfMatch: store.Match{Kind: store.MatchAny}}
		if s.Addressed {
			o.PartitionKey, o.RowKey = "p", "r"
		}
		if s.Body == op.EntityBody || s.Body == op.UpdateBody {
			o.Entity = &entity.Entity{PartitionKey: "p", RowKey: "r"}
			if s.Body == op.EntityBody {
				o.Entity.RowKey = "new"
			}
		}
		if s.Body == op.TableNameBody {
			o.Table = "Fresh"
		}
		r, msg := a.encode(o, "")
		if s.XML || s.Body == op.BatchBody || s.Answer == op.NoAnswer {
			if msg == "" {
				t.Errorf("%v: a request for a kind the page does not send", k)
			}
			continue
		}
		if msg != "" {
			t.Errorf("%v: %s", k, msg)
			continue
		}
		verb := s.Method.String()
		if s.Method == op.MethodMerge {
			verb = "PATCH"
		}
		has := map[string]bool{}
		for _, h := range r.Headers {
			has[h[0]] = true
		}
		if r.Method != verb || has["If-Match"] != (s.Condition == op.Conditional) || has["Content-Type"] != (s.Body != op.NoBody) {
			t.Errorf("%v: %s with headers %v", k, r.Method, r.Headers)
		}
		srv := httptest.NewServer(resthttp.New(rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: time.Now})))
		u := strings.Replace(r.URL, a.Base, srv.URL+"/devstoreaccount1", 1)
		req, _ := http.NewRequest(r.Method, u, strings.NewReader(r.Body))
		for _, h := range r.Headers {
			req.Header.Set(h[0], h[1])
		}
		resp, err := http.DefaultClient.Do(req)
		srv.Close()
		if err != nil || resp.StatusCode/100 != 2 {
			t.Errorf("%v: the engine answered %v %v", k, resp.Status, err)
		}
		resp.Body.Close()
	}
}
