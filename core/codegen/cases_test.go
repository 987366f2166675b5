package codegen_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/store"
)

// The page's operation, draft and property row, as window.tableplay takes
// them.
type (
	pageOp = play.Operation
	draft  = play.Draft
	row    = play.Row
)

// prop is a property row.
func prop(name, typ, text string) row { return row{Name: name, Type: typ, Text: text} }

// keyed is a draft with both keys.
func keyed(pk, rk string, props ...row) draft {
	return draft{PartitionKey: &pk, RowKey: &rk, Properties: props}
}

// allTypes is an entity with every Edm type at the values SDKs get wrong:
// Int64 2^53+1, a DateTime with a 100 ns digit, an integral Double, Binary
// and Guid.
func allTypes(pk, rk string) draft {
	return keyed(pk, rk, []row{
		prop("Name", "Edm.String", "Zoë \"quoted\" 'single' \\ back"),
		prop("Active", "Edm.Boolean", "true"),
		prop("Count", "Edm.Int32", "-42"),
		prop("Whole", "Edm.Double", "20"),
		prop("Ratio", "Edm.Double", "0.1"),
		prop("Big", "Edm.Int64", "9007199254740993"),
		prop("When", "Edm.DateTime", "2026-11-22T12:34:56.1234567Z"),
		prop("Id", "Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"),
		prop("Blob", "Edm.Binary", "AAEC/w=="),
	}...)
}

func ptr(d draft) *draft { return &d }

func small(pk, rk, n string) draft {
	return keyed(pk, rk, prop("N", "Edm.Int32", n), prop("Label", "", "row "+rk))
}

// etag names the state of the stored entity: the current ETag, or a stale one.
type etag int

const (
	noETag etag = iota
	currentETag
	staleETag
)

// runCase is one representative operation: the account before it, and the
// operation (its If-Match filled from the account when it asks for one).
type runCase struct {
	name  string
	setup []pageOp
	op    pageOp
	etag  etag
}

func sp(s string) *string { return &s }

func entityOp(kind string, d draft) pageOp { return pageOp{Kind: kind, Table: "Demo", Entity: &d} }

// demo is the account most cases start from.
func demo() []pageOp {
	return []pageOp{
		{Kind: "createTable", Table: "Demo"},
		entityOp("insert", allTypes("p1", "r1")),
		entityOp("insert", small("p1", "r2", "2")),
		entityOp("insert", small("p1", "r3", "3")),
		entityOp("insert", small("p1", "r4", "4")),
		entityOp("insert", small("p1", "r5", "5")),
		entityOp("insert", small("p2", "r1", "6")),
	}
}

func keysOnly(pk, rk string) draft { return keyed(pk, rk) }

func runCases() []runCase {
	changed := allTypes("p1", "r1")
	changed.Properties = append(changed.Properties[2:], prop("Extra", "Edm.Int64", "-9223372036854775808"))
	merged := keyed("p1", "r1", prop("Count", "Edm.Int32", "7"), prop("Whole", "Edm.Double", "-0.5"))
	return []runCase{
		{name: "createTable", op: pageOp{Kind: "createTable", Table: "Fresh"}},
		{name: "deleteTable", setup: demo(), op: pageOp{Kind: "deleteTable", Table: "Demo"}},
		{name: "getTable", setup: demo(), op: pageOp{Kind: "getTable", Table: "Demo"}},
		{name: "getTableMissing", setup: demo(), op: pageOp{Kind: "getTable", Table: "Nowhere"}},
		{name: "listTables", setup: append(demo(), pageOp{Kind: "createTable", Table: "Alpha"}, pageOp{Kind: "createTable", Table: "Zed"}),
			op: pageOp{Kind: "listTables", Top: 2}},
		{name: "insert", setup: demo()[:1], op: entityOp("insert", allTypes("p9", "new"))},
		{name: "insertExisting", setup: demo(), op: entityOp("insert", allTypes("p1", "r1"))},
		{name: "get", setup: demo(), op: entityOp("get", keysOnly("p1", "r1"))},
		{name: "replaceCurrentETag", setup: demo(), op: entityOp("replace", changed), etag: currentETag},
		{name: "replaceStaleETag", setup: demo(), op: entityOp("replace", changed), etag: staleETag},
		{name: "mergeAny", setup: demo(), op: entityOp("merge", merged)},
		{name: "mergeCurrentETag", setup: demo(), op: entityOp("merge", merged), etag: currentETag},
		{name: "insertOrReplace", setup: demo(), op: entityOp("insertOrReplace", changed)},
		{name: "insertOrMerge", setup: demo(), op: entityOp("insertOrMerge", allTypes("p3", "fresh"))},
		{name: "deleteCurrentETag", setup: demo(), op: entityOp("delete", keysOnly("p1", "r1")), etag: currentETag},
		{name: "deleteStaleETag", setup: demo(), op: entityOp("delete", keysOnly("p1", "r1")), etag: staleETag},
		{name: "deleteAny", setup: demo(), op: entityOp("delete", keysOnly("p2", "r1"))},
		{name: "queryFilteredSelectedPaged", setup: demo(), op: pageOp{Kind: "query", Table: "Demo",
			Filter: sp("PartitionKey eq 'p1' and RowKey ge 'r2'"), Select: sp("PartitionKey,RowKey,N,Label"), Top: 2}},
		{name: "queryAllTypes", setup: demo(), op: pageOp{Kind: "query", Table: "Demo", Filter: sp("Big eq 9007199254740993L")}},
		{name: "queryContinued", setup: demo(), op: pageOp{Kind: "query", Table: "Demo", Top: 3, NextPartitionKey: "from-first-page"}},
		{name: "batch", setup: demo(), op: pageOp{Kind: "batch", Operations: []pageOp{
			entityOp("insert", allTypes("p1", "b1")),
			entityOp("replace", small("p1", "r2", "20")),
			entityOp("merge", merged),
			entityOp("insertOrReplace", small("p1", "b2", "21")),
			entityOp("insertOrMerge", small("p1", "r3", "22")),
			entityOp("delete", keysOnly("p1", "r4")),
		}}},
		{name: "batchFails", setup: demo(), op: pageOp{Kind: "batch", Operations: []pageOp{
			entityOp("insert", small("p1", "b1", "1")),
			entityOp("insert", small("p1", "r2", "2")),
		}}},
	}
}

// fixedClock is the one instant both accounts (the server's and the
// engine's) stamp writes with, so that equal operations give equal ETags.
func fixedClock() func() time.Time {
	at := time.Now().UTC().Truncate(time.Second)
	return func() time.Time { return at }
}

// prepared is a case made concrete: the account before, the typed operation.
type prepared struct {
	before []byte
	opJSON []byte
	typed  op.Operation
}

// prepare runs a case's setup in the engine and fills the operation's ETag.
func prepare(t *testing.T, c runCase, clock func() time.Time) prepared {
	t.Helper()
	s := store.New(store.Options{Clock: clock})
	for _, p := range c.setup {
		b, _ := json.Marshal(p)
		o, err := play.TypedOperation(b)
		if err != nil {
			t.Fatalf("setup %s: %v", p.Kind, err)
		}
		if _, f := op.Execute(s, o, nil); f != nil {
			t.Fatalf("setup %s: %s", p.Kind, f.Err.Code)
		}
	}
	o := c.op
	if c.etag != noETag {
		e, err := s.Get(o.Table, *o.Entity.PartitionKey, *o.Entity.RowKey)
		if err != nil {
			t.Fatalf("no entity for the ETag: %s", err.Code)
		}
		ts := e.Timestamp
		if c.etag == staleETag {
			ts -= edm.Ticks(time.Second / 100)
		}
		o.IfMatch = odata.ETag(ts)
	}
	if o.NextPartitionKey == "from-first-page" {
		page, err := s.Query(o.Table, store.Query{Top: o.Top})
		if err != nil || !page.More() {
			t.Fatalf("first page: %v %v", err, page.More())
		}
		o.NextPartitionKey, o.NextRowKey = page.NextPartitionKey, page.NextRowKey
	}
	b, _ := json.Marshal(o)
	typed, err := play.TypedOperation(b)
	if err != nil {
		t.Fatalf("operation: %v", err)
	}
	return prepared{before: s.Snapshot(), opJSON: b, typed: typed}
}

// codegenInput wraps a typed operation for the generator.
type codegenInput struct{ op op.Operation }
