package op

import (
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

func newStore(t *testing.T) *store.Store {
	t.Helper()
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	return store.New(store.Options{Clock: func() time.Time { return at }})
}

func ent(pk, rk string, n int32) *entity.Entity {
	return &entity.Entity{PartitionKey: pk, RowKey: rk, Properties: []entity.Property{{Name: "N", Value: edm.Int32Value(n)}}}
}

func code(f *Failure) tableerr.Code {
	if f == nil {
		return ""
	}
	return f.Err.Code
}

func TestKindNamesRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		name := k.String()
		if name == "unknown" || seen[name] {
			t.Fatalf("kind %d has name %q (duplicate or missing)", k, name)
		}
		seen[name] = true
		back, ok := ParseKind(name)
		if !ok || back != k {
			t.Fatalf("ParseKind(%q) = %v, %v; want %v", name, back, ok, k)
		}
	}
	if _, ok := ParseKind("upsert"); ok {
		t.Fatal("ParseKind accepted an unknown name")
	}
}

func TestKindClassification(t *testing.T) {
	cases := []struct {
		k                         Kind
		addressed, changes, batch bool
	}{
		{CreateTable, false, true, false},
		{ListTables, false, false, false},
		{Insert, false, true, true},
		{Get, true, false, true},
		{Replace, true, true, true},
		{InsertOrMerge, true, true, true},
		{Delete, true, true, true},
		{Query, false, false, false},
		{SetACL, false, true, false},
		{GetACL, false, false, false},
		{SetProperties, false, true, false},
		{GetStats, false, false, false},
	}
	for _, c := range cases {
		if c.k.Addressed() != c.addressed || c.k.Changes() != c.changes || c.k.InBatch() != c.batch {
			t.Errorf("%v: addressed %v changes %v inBatch %v; want %v %v %v", c.k,
				c.k.Addressed(), c.k.Changes(), c.k.InBatch(), c.addressed, c.changes, c.batch)
		}
	}
}

func TestExecuteEntityLifecycle(t *testing.T) {
	s := newStore(t)
	must := func(o Operation) Result {
		t.Helper()
		r, f := Execute(s, o, nil)
		if f != nil {
			t.Fatalf("%v: %v", o.Kind, f.Err)
		}
		return r
	}
	if r := must(Operation{Kind: CreateTable, Table: "People"}); r.Table != "People" {
		t.Fatalf("created %q", r.Table)
	}
	ins := must(Operation{Kind: Insert, Table: "people", Entity: ent("a", "1", 1)})
	if _, f := Execute(s, Operation{Kind: Insert, Table: "people", Entity: ent("a", "1", 2)}, nil); code(f) != tableerr.EntityAlreadyExists {
		t.Fatalf("second insert: %v", code(f))
	}
	stale := store.Match{Kind: store.MatchETag, ETag: ins.Entity.Timestamp}
	must(Operation{Kind: Merge, Table: "people", PartitionKey: "a", RowKey: "1", Entity: ent("a", "1", 3), IfMatch: stale})
	if _, f := Execute(s, Operation{Kind: Replace, Table: "people", PartitionKey: "a", RowKey: "1", Entity: ent("a", "1", 4), IfMatch: stale}, nil); code(f) != tableerr.UpdateConditionNotSatisfied {
		t.Fatalf("replace with a stale ETag: %v", code(f))
	}
	sel := "N"
	got := must(Operation{Kind: Get, Table: "people", PartitionKey: "a", RowKey: "1", Query: Options{Select: &sel}})
	if got.Entity.Properties[0].Value.Int() != 3 || len(got.Select) != 1 {
		t.Fatalf("get: %+v select %v", got.Entity.Properties, got.Select)
	}
	filterText := "N eq 3"
	page := must(Operation{Kind: Query, Table: "people", Query: Options{Filter: &filterText, Top: 5}})
	if len(page.Page.Entities) != 1 {
		t.Fatalf("query returned %d", len(page.Page.Entities))
	}
	hide := func(*entity.Entity) bool { return false }
	if r, _ := Execute(s, Operation{Kind: Query, Table: "people"}, hide); len(r.Page.Entities) != 0 {
		t.Fatal("a query ignored Within")
	}
	if _, f := Execute(s, Operation{Kind: Query, Table: "people", Query: Options{Top: 1001}}, nil); code(f) != tableerr.InvalidInput {
		t.Fatalf("$top 1001: %v", code(f))
	}
	must(Operation{Kind: Delete, Table: "people", PartitionKey: "a", RowKey: "1", IfMatch: store.Match{Kind: store.MatchAny}})
	if _, f := Execute(s, Operation{Kind: Get, Table: "people", PartitionKey: "a", RowKey: "1"}, nil); code(f) != tableerr.ResourceNotFound {
		t.Fatalf("get after delete: %v", code(f))
	}
	if r := must(Operation{Kind: ListTables}); len(r.Tables.Names) != 1 {
		t.Fatalf("tables: %v", r.Tables.Names)
	}
	must(Operation{Kind: DeleteTable, Table: "people"})
}

func TestExecuteBatchIsAtomic(t *testing.T) {
	s := newStore(t)
	if _, f := Execute(s, Operation{Kind: CreateTable, Table: "tbl"}, nil); f != nil {
		t.Fatal(f.Err)
	}
	if _, f := Execute(s, Operation{Kind: Insert, Table: "tbl", Entity: ent("p", "2", 0)}, nil); f != nil {
		t.Fatal(f.Err)
	}
	b := Operation{Kind: Batch, Table: "tbl", Operations: []Operation{
		{Kind: Insert, Table: "tbl", Entity: ent("p", "1", 1)},
		{Kind: Insert, Table: "tbl", Entity: ent("p", "2", 2)}, // exists: fails
	}}
	_, f := Execute(s, b, nil)
	if f == nil || f.Index != 1 || f.Err.Code != tableerr.EntityAlreadyExists {
		t.Fatalf("failure %+v", f)
	}
	if _, f := Execute(s, Operation{Kind: Get, Table: "tbl", PartitionKey: "p", RowKey: "1"}, nil); code(f) != tableerr.ResourceNotFound {
		t.Fatal("the failed batch left its first insert behind")
	}
	b.Operations[1] = Operation{Kind: InsertOrReplace, Table: "tbl", PartitionKey: "p", RowKey: "2", Entity: ent("p", "2", 5)}
	r, f := Execute(s, b, nil)
	if f != nil || len(r.Batch) != 2 || r.Batch[1].Properties[0].Value.Int() != 5 {
		t.Fatalf("batch: %+v %+v", r, f)
	}
}

func TestCheckBatchNamesFirstOffender(t *testing.T) {
	parts := []Operation{
		{Kind: Insert, Table: "tbl", Entity: ent("p", "1", 1)},
		{Kind: Insert, Table: "tbl", Entity: ent("q", "1", 1)},
		{Kind: Insert, Table: "other", Entity: ent("p", "3", 1)},
	}
	if i, err := CheckBatch(parts); i != 1 || err.Code != tableerr.CommandsInBatchActOnDifferentPartitions {
		t.Fatalf("got %d %v; want the second PartitionKey at 1", i, err)
	}
	parts[1].Entity = ent("p", "2", 1)
	if i, err := CheckBatch(parts); i != 2 || err.Code != tableerr.CommandsInBatchActOnDifferentPartitions {
		t.Fatalf("got %d %v; want the other table at 2", i, err)
	}
	parts[2] = Operation{Kind: Query, Table: "tbl"}
	if i, err := CheckBatch(parts); i != 2 || err.Code != tableerr.InvalidInput {
		t.Fatalf("got %d %v; want a query refused at 2", i, err)
	}
}

// $top=0 asks for an empty page that still says whether more exist; an
// empty $filter is no filter.
func TestTopZeroAndEmptyFilter(t *testing.T) {
	s := newStore(t)
	if _, f := Execute(s, Operation{Kind: CreateTable, Table: "zero"}, nil); f != nil {
		t.Fatal(f.Err)
	}
	for _, rk := range []string{"a", "b"} {
		if _, f := Execute(s, Operation{Kind: Insert, Table: "zero", Entity: ent("p", rk, 1)}, nil); f != nil {
			t.Fatal(f.Err)
		}
	}
	empty := ""
	r, f := Execute(s, Operation{Kind: Query, Table: "zero", Query: Options{Top: store.NoEntities, Filter: &empty}}, nil)
	if f != nil || len(r.Page.Entities) != 0 || !r.Page.More() {
		t.Fatalf("$top=0: %+v %v", r.Page, f)
	}
	if _, f := Execute(s, Operation{Kind: Query, Table: "zero", Query: Options{Top: -2}}, nil); code(f) != tableerr.InvalidInput {
		t.Fatalf("$top=-1: %v", code(f))
	}
}
