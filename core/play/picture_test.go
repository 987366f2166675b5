package play

import (
	"fmt"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
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
		filter   string
		from, to int
	}{
		{"PartitionKey eq 'c'", 20, 30},
		{"PartitionKey eq 'c' and RowKey ge '4'", 24, 30},
		{"PartitionKey ge 'b' and PartitionKey lt 'd'", 10, 30},
		{"RowKey eq '5'", 0, 50},
		{"PartitionKey gt 'e' and PartitionKey lt 'a'", 40, 40}, // empty, placed at its lower bound
		{"", 0, 50},
	} {
		f := c.filter
		m := decode[QueryMap](t, a.QueryPicture(mustJSON(Operation{Kind: "query", Table: "pic", Filter: &f})))
		if m.Total != 50 || m.RangeFrom != c.from || m.RangeTo != c.to || m.PageFrom != c.from {
			t.Errorf("%q: %+v", c.filter, m)
		}
	}
}

func TestQueryPicturePages(t *testing.T) {
	a := pictureAPI(t)
	f := "PartitionKey ge 'b' and RowKey eq '5'"
	n, _ := filter.Parse(f)
	op := Operation{Kind: "query", Table: "pic", Filter: &f, Top: 2}
	m := decode[QueryMap](t, a.QueryPicture(mustJSON(op)))
	if m.RangeFrom != 10 || m.RangeTo != 50 || m.PageFrom != 10 {
		t.Fatalf("page 1: %+v", m)
	}
	// b/5 and c/5 returned; the page ends before d/5, the next page's first
	// key: where page 1 started plus what it examined.
	page, _ := a.Store.Query("pic", store.Query{Filter: n, Top: 2})
	op.NextPartitionKey, op.NextRowKey = page.NextPartitionKey, page.NextRowKey
	m2 := decode[QueryMap](t, a.QueryPicture(mustJSON(op)))
	if m2.PageFrom != 35 || m.PageFrom+page.Scanned != m2.PageFrom || m2.RangeFrom != 10 {
		t.Fatalf("page 2: %+v after %d examined", m2, page.Scanned)
	}
}

func TestQueryPictureRefusesBadInput(t *testing.T) {
	a := pictureAPI(t)
	f := "PartitionKey eq"
	for name, in := range map[string][]byte{
		"a broken filter": mustJSON(Operation{Kind: "query", Table: "pic", Filter: &f}),
		"a missing table": mustJSON(Operation{Kind: "query", Table: "nope"}),
		"not JSON":        []byte("{"),
	} {
		if e := decode[map[string]any](t, a.QueryPicture(in)); e["error"] == nil {
			t.Errorf("%s: %v", name, e)
		}
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
