package play

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

func queued(kind, table, pk, rk string, props ...Row) Operation {
	return Operation{Kind: kind, Table: table, Entity: &Draft{PartitionKey: &pk, RowKey: &rk, Properties: props}}
}

func TestCheckBatch(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	check := func(ops []Operation) BatchCheck { return decode[BatchCheck](t, a.CheckBatch(mustJSON(ops))) }
	c := check([]Operation{queued("insert", "t", "p", "1"), queued("merge", "t", "p", "2")})
	if !c.Valid || c.Index != -1 || c.Count != 2 || c.Limit != 100 || len(c.Rules) != 4 {
		t.Errorf("valid queue: %+v", c)
	}
	c = check([]Operation{queued("insert", "t", "p", "1"), queued("insert", "t", "q", "2")})
	if c.Valid || c.Index != 1 || c.Error.Code != "CommandsInBatchActOnDifferentPartitions" || c.Rules[1].OK {
		t.Errorf("two partitions: %+v", c)
	}
	c = check([]Operation{queued("insert", "t", "p", "1"), queued("delete", "t", "p", "1")})
	if c.Valid || c.Index != 1 || c.Error.Code != "InvalidDuplicateRow" || c.Rules[3].OK {
		t.Errorf("twice: %+v", c)
	}
	c = check([]Operation{queued("insert", "t", "p", "1"), queued("insert", "t", "p", "a/b")})
	if c.Valid || c.Index != 1 || c.Error.Code != "OutOfRangeInput" || c.Rules[0].OK {
		t.Errorf("bad entity: %+v", c)
	}
	var many []Operation
	for i := 0; i < 101; i++ {
		many = append(many, queued("insert", "t", "p", fmt.Sprint(i)))
	}
	c = check(many)
	if c.Valid || c.Index != 100 || c.Rules[2].OK {
		t.Errorf("101: %+v", c)
	}
}

func TestBatchRequestAndAnswer(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	srv := httptest.NewServer(resthttp.New(rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: time.Now})))
	defer srv.Close()
	a := newAPI(srv.URL + "/devstoreaccount1")
	a.Clock = time.Now
	st.CreateTable("batch")
	do := func(ops []Operation) BatchAnswer {
		t.Helper()
		r := decode[Request](t, a.RequestFor(mustJSON(Operation{Kind: "batch", Operations: ops})))
		if r.Error != "" {
			t.Fatal(r.Error)
		}
		req, _ := http.NewRequest(r.Method, r.URL, strings.NewReader(r.Body))
		for _, h := range r.Headers {
			req.Header.Set(h[0], h[1])
		}
		resp, err := srv.Client().Do(req)
		if err != nil || resp.StatusCode != 202 {
			t.Fatalf("%v %v", err, resp.Status)
		}
		b, _ := io.ReadAll(resp.Body)
		return decode[BatchAnswer](t, a.ReadBatch(resp.Header.Get("Content-Type"), string(b)))
	}
	ok := do([]Operation{queued("insert", "batch", "p", "1", Row{Name: "N", Type: "Int64", Text: "5"}), queued("insertOrMerge", "batch", "p", "2")})
	if !ok.OK || ok.FailedIndex != -1 || len(ok.Parts) != 2 || ok.Parts[0].Status != 204 || !strings.HasPrefix(ok.Parts[0].ETag, `W/"datetime'`) {
		t.Fatalf("success: %+v", ok)
	}
	if n, _ := st.Count("batch"); n != 2 {
		t.Errorf("%d entities", n)
	}
	bad := do([]Operation{queued("insert", "batch", "p", "3"), queued("insert", "batch", "p", "1")})
	if bad.OK || bad.FailedIndex != 1 || len(bad.Parts) != 1 || bad.Parts[0].Status != 409 || bad.Parts[0].Code != "EntityAlreadyExists" || bad.Parts[0].Message != "1:The specified entity already exists." {
		t.Fatalf("failure: %+v", bad)
	}
	if n, _ := st.Count("batch"); n != 2 {
		t.Errorf("a failed transaction changed the table: %d entities", n)
	}
	if r := decode[Request](t, a.RequestFor([]byte(`{"kind":"batch"}`))); r.Error == "" {
		t.Error("an empty batch built")
	}
}

func TestQueryStatsAndReset(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	a := newAPI("http://h/devstoreaccount1")
	a.Store = st
	st.CreateTable("stats")
	for _, pk := range []string{"a", "b", "c"} {
		for i := 0; i < 10; i++ {
			st.Apply("stats", store.Op{Kind: store.InsertOrReplace, Entity: mustEntity(t, pk, fmt.Sprint(i))})
		}
	}
	f := "PartitionKey eq 'b' and RowKey ge '5'"
	s := decode[map[string]any](t, a.QueryStats(mustJSON(Operation{Table: "stats", Filter: &f})))
	if s["scanned"] != float64(5) || s["returned"] != float64(5) || s["total"] != float64(30) {
		t.Errorf("%v", s)
	}
	g := "RowKey eq '5'"
	s = decode[map[string]any](t, a.QueryStats(mustJSON(Operation{Table: "stats", Filter: &g})))
	if s["scanned"] != float64(30) || s["returned"] != float64(3) {
		t.Errorf("%v", s)
	}
	if msg := a.Reset(); msg != "" {
		t.Fatal(msg)
	}
	if _, err := st.GetTable("stats"); err == nil {
		t.Error("reset kept a table")
	}
}

func mustEntity(t *testing.T, pk, rk string) *entity.Entity {
	t.Helper()
	return &entity.Entity{PartitionKey: pk, RowKey: rk}
}
