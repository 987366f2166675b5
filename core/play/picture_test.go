package play

import (
	"fmt"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// pictureAPI is an account with table "pic": partitions a to e, rows 0 to 9
// in each (50 entities in key order a/0 … e/9).
func pictureAPI(t *testing.T) *API {
	t.Helper()
	st := store.New(store.Options{Clock: time.Now})
	a := newAPI("http://h/devstoreaccount1")
	a.Store = st
	st.CreateTable("pic")
	for _, pk := range []string{"a", "b", "c", "d", "e"} {
		for i := 0; i < 10; i++ {
			if _, err := st.Apply("pic", store.Op{Kind: store.InsertOrReplace, Entity: mustEntity(t, pk, fmt.Sprint(i))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return a
}

func TestQueryPictureKeyRange(t *testing.T) {
	a := pictureAPI(t)
	for _, c := range []struct {
		filter                               string
		from, to, pageFrom, pageTo, returned int
	}{
		{"PartitionKey eq 'c'", 20, 30, 20, 30, 10},
		{"PartitionKey eq 'c' and RowKey ge '4'", 24, 30, 24, 30, 6},
		{"PartitionKey ge 'b' and PartitionKey lt 'd'", 10, 30, 10, 30, 20},
		{"RowKey eq '5'", 0, 50, 0, 50, 5},
		{"PartitionKey gt 'e' and PartitionKey lt 'a'", 40, 40, 40, 40, 0}, // empty, placed at its lower bound
		{"", 0, 50, 0, 50, 50},
	} {
		f := c.filter
		m := decode[QueryMap](t, a.QueryPicture(mustJSON(Operation{Kind: "query", Table: "pic", Filter: &f})))
		if m.Total != 50 || m.RangeFrom != c.from || m.RangeTo != c.to || m.PageFrom != c.pageFrom || m.PageTo != c.pageTo || m.Returned != c.returned || m.Next != nil {
			t.Errorf("%q: %+v", c.filter, m)
		}
	}
}

func TestQueryPicturePages(t *testing.T) {
	a := pictureAPI(t)
	f := "PartitionKey ge 'b' and RowKey eq '5'"
	op := Operation{Kind: "query", Table: "pic", Filter: &f, Top: 2}
	m := decode[QueryMap](t, a.QueryPicture(mustJSON(op)))
	// b/5 and c/5 returned; the page ends at d/5, the next page's first key.
	if m.RangeFrom != 10 || m.RangeTo != 50 || m.PageFrom != 10 || m.PageTo != 35 || m.Examined != 25 || m.Returned != 2 {
		t.Fatalf("page 1: %+v", m)
	}
	if m.Next == nil || m.Next.PartitionKey.Key != "d" || m.Next.RowKey.Key != "5" {
		t.Fatalf("page 1 next: %+v", m.Next)
	}
	op.NextPartitionKey, op.NextRowKey = m.Next.PartitionKey.Raw, m.Next.RowKey.Raw
	m = decode[QueryMap](t, a.QueryPicture(mustJSON(op)))
	if m.PageFrom != 35 || m.PageTo != 50 || m.Returned != 2 || m.Next != nil {
		t.Fatalf("page 2: %+v", m)
	}
}

func TestQueryPictureRefusesBadInput(t *testing.T) {
	a := pictureAPI(t)
	f := "PartitionKey eq"
	if m := decode[QueryMap](t, a.QueryPicture(mustJSON(Operation{Kind: "query", Table: "pic", Filter: &f}))); m.Error == nil {
		t.Errorf("a broken filter: %+v", m)
	}
	if m := decode[QueryMap](t, a.QueryPicture(mustJSON(Operation{Kind: "query", Table: "nope"}))); m.Error == nil || m.Error.Code != "TableNotFound" {
		t.Errorf("a missing table: %+v", m)
	}
	if e := decode[map[string]any](t, a.QueryPicture([]byte("{"))); e["error"] == nil {
		t.Errorf("not JSON: %v", e)
	}
}

func TestRunCountsWireBytes(t *testing.T) {
	a := pictureAPI(t)
	a.Handler = rest.New(rest.Options{Store: a.Store, Credentials: rest.WellKnown(), Clock: a.Clock})
	ran := decode[Ran](t, a.Run(mustJSON(Operation{Kind: "query", Table: "pic", Top: 1})))
	if ran.RequestBytes == 0 || ran.Response == nil {
		t.Fatalf("%+v", ran)
	}
	req := ran.Request
	wantReq := len(req.Method+" ") + len(" HTTP/1.1\r\n") + len("Host: h\r\n") + len("\r\n") + len(req.Body) + headerBytes(req.Headers)
	wantReq += len(req.URL) - len("http://h")
	r := ran.Response
	wantRes := len(fmt.Sprintf("HTTP/1.1 %d %s\r\n", r.Status, r.StatusText)) + headerBytes(r.Headers) + len("\r\n") + len(r.Body)
	if ran.RequestBytes != wantReq || ran.ResponseBytes != wantRes || len(r.Body) == 0 {
		t.Errorf("bytes %d and %d, want %d and %d", ran.RequestBytes, ran.ResponseBytes, wantReq, wantRes)
	}
}

// BenchmarkQueryPicture places a one-partition page of a 2,000-entity table
// (40 partitions of 50): the counting scans read the entities before it.
func BenchmarkQueryPicture(b *testing.B) {
	st := store.New(store.Options{Clock: time.Now})
	a := newAPI("http://h/devstoreaccount1")
	a.Store = st
	st.CreateTable("big")
	for i := 0; i < 2000; i++ {
		e := &entity.Entity{PartitionKey: fmt.Sprintf("p%02d", i%40), RowKey: fmt.Sprintf("r%04d", i)}
		if _, err := st.Apply("big", store.Op{Kind: store.InsertOrReplace, Entity: e}); err != nil {
			b.Fatal(err)
		}
	}
	f := "PartitionKey eq 'p30'"
	op := mustJSON(Operation{Kind: "query", Table: "big", Filter: &f})
	b.ReportAllocs()
	for b.Loop() {
		a.QueryPicture(op)
	}
}
