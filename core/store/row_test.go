package store

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
)

// rowCases are entities with every Edm type at its edges, empty strings,
// and non-ASCII keys and names.
func rowCases() []*entity.Entity {
	return []*entity.Entity{
		ent("", ""),
		ent("p", "r", str("Empty", ""), prop("NoBytes", edm.BinaryValue(nil))),
		ent("é\u00a0ü", "\U0001F600\ue000",
			str("Näme", "日本語 and ASCII"),
			prop("Bin", edm.BinaryValue([]byte{0, 1, 0xff, 0x80})),
			prop("T", edm.BoolValue(true)), prop("F", edm.BoolValue(false)),
			prop("I32min", edm.Int32Value(math.MinInt32)), prop("I32max", edm.Int32Value(math.MaxInt32)), i32("Zero", 0),
			prop("I64min", edm.Int64Value(math.MinInt64)), prop("I64max", edm.Int64Value(math.MaxInt64)),
			prop("Dmin", edm.DateTimeValue(edm.MinTicks)), prop("Dmax", edm.DateTimeValue(edm.MaxTicks)),
			prop("NaN", edm.DoubleValue(math.NaN())), prop("Inf", edm.DoubleValue(math.Inf(-1))),
			prop("NegZero", edm.DoubleValue(math.Copysign(0, -1))), prop("Pi", edm.DoubleValue(math.Pi)),
			prop("Guid", edm.GuidValue([16]byte{0xc9, 0xda, 0x64, 0x55, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff})),
			str("Long", string(make([]byte, 300)))),
	}
}

// sameEntity reports whether two entities hold the same keys, Timestamp and
// properties (values by type and bits: NaN equals NaN).
func sameEntity(a, b *entity.Entity) bool {
	if a.PartitionKey != b.PartitionKey || a.RowKey != b.RowKey || a.Timestamp != b.Timestamp || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i].Name != b.Properties[i].Name || !a.Properties[i].Value.Equal(b.Properties[i].Value) {
			return false
		}
	}
	return true
}

// A row packs an entity and decodes to the same entity, every type at its
// edges, and answers a filter's reads by name as the entity does.
func TestRowRoundTrip(t *testing.T) {
	tb := newTable("t", 0)
	for _, e := range rowCases() {
		e.Timestamp = edm.Ticks(638000000001234567)
		r := tb.pack(e, e.Timestamp, nil)
		if int(r.size) != e.Size() {
			t.Errorf("%q/%q: size %d, want %d", e.PartitionKey, e.RowKey, r.size, e.Size())
		}
		if pk, rk := r.keys(); pk != e.PartitionKey || rk != e.RowKey || r.pk() != pk || r.rk() != rk {
			t.Errorf("keys %q/%q, want %q/%q", pk, rk, e.PartitionKey, e.RowKey)
		}
		got := r.entity(tb.names.load(), tb.cache)
		if !sameEntity(got, e) || got.KeptSize != e.Size() {
			t.Errorf("decoded %+v, want %+v", got, e)
		}
		rec := record{r: r, dict: tb.names.load()}
		for _, name := range append([]string{entity.PartitionKey, entity.RowKey, entity.Timestamp, "Missing"}, propNames(e)...) {
			gv, gok := rec.Get(name)
			wv, wok := e.Get(name)
			if gok != wok || !gv.Equal(wv) {
				t.Errorf("%q/%q: Get(%q) = %v %v, want %v %v", e.PartitionKey, e.RowKey, name, gv, gok, wv, wok)
			}
		}
	}
}

func propNames(e *entity.Entity) []string {
	var out []string
	for _, p := range e.Properties {
		out = append(out, p.Name)
	}
	return out
}

// Past maxInterned names a table writes further names inline: rows with
// both kinds decode whole, and a filter finds a property by either.
func TestRowInlineNames(t *testing.T) {
	s := newStore(t, "wide")
	for i := 0; i < maxInterned/200+2; i++ {
		props := make([]entity.Property, 0, 200)
		for j := 0; j < 200; j++ {
			props = append(props, i32("N"+strconv.Itoa(i*200+j), j))
		}
		if _, err := s.Apply("wide", Op{Kind: Insert, Entity: ent("p", rk(i), props...)}); err != nil {
			t.Fatal(err)
		}
	}
	tb, _ := s.tableFor("wide")
	if n := len(tb.names.load()); n != maxInterned {
		t.Fatalf("dictionary holds %d names, want %d", n, maxInterned)
	}
	last := maxInterned/200 + 1
	e := ent("p", rk(last+1), str("N0", "shared"), str("Beyond", "inline"), str("N"+strconv.Itoa(last*200), "inline too"))
	if _, err := s.Apply("wide", Op{Kind: Insert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("wide", "p", rk(last+1))
	if err != nil {
		t.Fatal(err)
	}
	e.Timestamp = got.Timestamp
	if !sameEntity(got, e) {
		t.Fatalf("got %+v", got)
	}
	tb.mu.Lock()
	it, _ := tb.work.Get(probe("p", rk(last+1)))
	tb.mu.Unlock()
	inline := 0
	n, rd := it.r.count()
	for i := 0; i < n; i++ {
		if ref := rd.uvarint(); ref&1 == 1 {
			inline++
			rd.i += int(ref >> 1)
		}
		rd.skipValue()
	}
	if inline != 2 {
		t.Fatalf("%d names written inline, want 2", inline)
	}
	for _, f := range []string{"Beyond eq 'inline'", "N0 eq 'shared'", "N" + strconv.Itoa(last*200) + " eq 'inline too'"} {
		p, err := s.Query("wide", Query{Filter: mustFilter(t, f)})
		if err != nil || len(p.Entities) != 1 || p.Entities[0].RowKey != rk(last+1) {
			t.Fatalf("%s: %v %v", f, p.Entities, err)
		}
	}
	// And they survive a snapshot in blocks and a JSON snapshot.
	r := New(Options{Clock: stalled()})
	if err := r.LoadBlocks(feed(blocksOf(t, s))); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Snapshot(), s.Snapshot()) {
		t.Fatal("the account loaded from blocks differs")
	}
}

// Reading many rows through query pages caches their encodings only up
// to the table's budget; replacing and deleting rows gives their bytes
// back.
func TestMembersCacheBudget(t *testing.T) {
	s := newStore(t, "tbl")
	big := string(make([]byte, 2000))
	const rows = 3000 // 36 KB of encoding each (a NUL is written \u0000): far past the budget
	for start := 0; start < rows; start += 100 {
		var ops []Op
		for i := start; i < start+100; i++ {
			ops = append(ops, Op{Kind: Insert, Entity: ent("p"+strconv.Itoa(start), rk(i), str("A", big), str("B", big), str("C", big))})
		}
		if _, err := s.Transact("tbl", ops); err != nil {
			t.Fatal(err.Err)
		}
	}
	tb, _ := s.tableFor("tbl")
	c := &odata.Context{Level: odata.MinimalMetadata}
	cached := 0
	q := Query{}
	for pages := 0; pages < 100; pages++ {
		p, err := s.Query("tbl", q)
		if err != nil {
			t.Fatal(err)
		}
		odata.AppendEntities(nil, c, p.Entities, nil)
		for _, e := range p.Entities {
			if e.CachedMembers() != nil {
				cached++
			}
		}
		if used := tb.cache.Used(); used > cacheBudget {
			t.Fatalf("cached %d bytes, budget %d", used, cacheBudget)
		}
		if !p.More() {
			break
		}
		q.NextPartitionKey, q.NextRowKey = p.NextPartitionKey, p.NextRowKey
	}
	used := tb.cache.Used()
	if cached == 0 || cached == rows || used < cacheBudget/2 {
		t.Fatalf("%d of %d rows cached in %d bytes: the budget was not reached or not held", cached, rows, used)
	}
	// A point read reuses the encoding a page cached; past the budget,
	// its own writing keeps nothing.
	e, _ := s.Get("tbl", "p0", rk(0))
	if e.CachedMembers() == nil {
		t.Fatal("a point read of a row a page cached did not find its encoding")
	}
	last, _ := s.Get("tbl", "p"+strconv.Itoa(rows-100), rk(rows-1))
	odata.AppendEntity(nil, c, last, nil)
	if tb.cache.Used() > cacheBudget {
		t.Fatalf("a point read past the budget: %d bytes cached, budget %d", tb.cache.Used(), cacheBudget)
	}
	// Deleting every row gives every byte back.
	for start := 0; start < rows; start += 100 {
		var ops []Op
		for i := start; i < start+100; i++ {
			ops = append(ops, Op{Kind: Delete, Entity: ent("p"+strconv.Itoa(start), rk(i)), IfMatch: Match{Kind: MatchAny}})
		}
		if _, err := s.Transact("tbl", ops); err != nil {
			t.Fatal(err.Err)
		}
	}
	if used := tb.cache.Used(); used != 0 {
		t.Fatalf("%d bytes still counted after every row was deleted", used)
	}
}

// A transaction that fails puts back the rows it replaced with their
// cached encodings still counted, and a replace gives the old row's back.
func TestMembersCacheReplace(t *testing.T) {
	s := newStore(t, "tbl")
	if _, err := s.Transact("tbl", []Op{{Kind: Insert, Entity: ent("p", "a", i32("N", 1))}, {Kind: Insert, Entity: ent("p", "b")}}); err != nil {
		t.Fatal(err.Err)
	}
	tb, _ := s.tableFor("tbl")
	p, _ := s.Query("tbl", Query{})
	odata.AppendEntities(nil, &odata.Context{Level: odata.MinimalMetadata}, p.Entities, nil)
	used := tb.cache.Used()
	if used == 0 {
		t.Fatal("a page cached nothing")
	}
	_, txErr := s.Transact("tbl", []Op{{Kind: InsertOrReplace, Entity: ent("p", "a", i32("N", 2))}, {Kind: Insert, Entity: ent("p", "b")}})
	if txErr == nil {
		t.Fatal("a transaction inserting an existing entity succeeded")
	}
	if got := tb.cache.Used(); got != used {
		t.Fatalf("after a failed transaction %d bytes counted, want %d", got, used)
	}
	if e, _ := s.Get("tbl", "p", "a"); e.CachedMembers() == nil {
		t.Fatal("the row a failed transaction put back lost its encoding")
	}
	if _, err := s.Apply("tbl", Op{Kind: Replace, Entity: ent("p", "a", i32("N", 3)), IfMatch: Match{Kind: MatchAny}}); err != nil {
		t.Fatal(err)
	}
	if got := tb.cache.Used(); got >= used || got == 0 {
		t.Fatalf("after a replace %d bytes counted, before %d", got, used)
	}
	// Reads after writes show the new values, never a cached encoding of
	// the row before: a point read and a page, each written twice (the
	// second time from what the first kept).
	c := &odata.Context{Level: odata.MinimalMetadata}
	for _, want := range []int{3, 4, 5} {
		if want > 3 {
			kind := Merge
			if want == 5 {
				kind = InsertOrReplace
			}
			if _, err := s.Apply("tbl", Op{Kind: kind, Entity: ent("p", "a", i32("N", want)), IfMatch: Match{Kind: MatchAny}}); err != nil {
				t.Fatal(err)
			}
		}
		field := `"N":` + strconv.Itoa(want)
		for range 2 {
			e, _ := s.Get("tbl", "p", "a")
			if got := string(odata.AppendEntity(nil, c, e, nil)); !strings.Contains(got, field) {
				t.Fatalf("point read after the write: %s, want %s", got, field)
			}
			p, _ := s.Query("tbl", Query{})
			if got := string(odata.AppendEntities(nil, c, p.Entities, nil)); !strings.Contains(got, field) {
				t.Fatalf("page after the write: %s, want %s", got, field)
			}
		}
	}
	if _, err := s.Transact("tbl", []Op{{Kind: Delete, Entity: ent("p", "a"), IfMatch: Match{Kind: MatchAny}}, {Kind: Delete, Entity: ent("p", "b"), IfMatch: Match{Kind: MatchAny}}}); err != nil {
		t.Fatal(err.Err)
	}
	if got := tb.cache.Used(); got != 0 {
		t.Fatalf("%d bytes counted once every row was deleted", got)
	}
}

// Readers writing rows out (and caching their encodings) while a writer
// merges into the same rows: under -race, no race; at the end, every
// read shows the last write, and deleting the rows gives every byte back.
func TestMembersCacheConcurrent(t *testing.T) {
	s := newStore(t, "tbl")
	const rows, merges = 50, 1000
	var ops []Op
	for i := range rows {
		ops = append(ops, Op{Kind: Insert, Entity: ent("p", rk(i), i32("N", 0))})
	}
	if _, err := s.Transact("tbl", ops); err != nil {
		t.Fatal(err.Err)
	}
	c := &odata.Context{Level: odata.MinimalMetadata}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if r%2 == 0 {
					e, _ := s.Get("tbl", "p", rk(i%rows))
					odata.AppendEntity(nil, c, e, nil)
				} else {
					p, _ := s.Query("tbl", Query{Top: 10})
					odata.AppendEntities(nil, c, p.Entities, nil)
				}
			}
		}()
	}
	for i := range merges {
		if _, err := s.Apply("tbl", Op{Kind: Merge, Entity: ent("p", rk(i%rows), i32("N", i)), IfMatch: Match{Kind: MatchAny}}); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	for i := range rows {
		e, _ := s.Get("tbl", "p", rk(i))
		last := merges - rows + i
		if got, field := string(odata.AppendEntity(nil, c, e, nil)), `"N":`+strconv.Itoa(last); !strings.Contains(got, field) {
			t.Fatalf("row %d: %s, want %s", i, got, field)
		}
	}
	ops = ops[:0]
	for i := range rows {
		ops = append(ops, Op{Kind: Delete, Entity: ent("p", rk(i)), IfMatch: Match{Kind: MatchAny}})
	}
	if _, err := s.Transact("tbl", ops); err != nil {
		t.Fatal(err.Err)
	}
	tb, _ := s.tableFor("tbl")
	if got := tb.cache.Used(); got != 0 {
		t.Fatalf("%d bytes counted once every row was deleted", got)
	}
}

// Blocks whose names come in another order than the table's dictionary
// (a later block starting with an entity of another shape) load into rows
// renamed to the dictionary, and write back the same blocks.
func TestLoadBlocksRenames(t *testing.T) {
	s := newStore(t, "mixed")
	pad := string(make([]byte, 200))
	for start := 0; start < 3000; start += 100 {
		var ops []Op
		for i := start; i < start+100; i++ {
			e := ent("p"+strconv.Itoa(start), rk(i), str("X", pad), i32("Y", i))
			if i >= 1500 {
				e = ent("p"+strconv.Itoa(start), rk(i), i32("Y", i), str("Z", pad), prop("W", edm.BoolValue(true)))
			}
			ops = append(ops, Op{Kind: Insert, Entity: e})
		}
		if _, err := s.Transact("mixed", ops); err != nil {
			t.Fatal(err.Err)
		}
	}
	blocks := blocksOf(t, s)
	if len(blocks) < 4 {
		t.Fatalf("%d blocks: want several entity blocks", len(blocks))
	}
	r := New(Options{Clock: stalled()})
	if err := r.LoadBlocks(feed(blocks)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(blocksOf(t, r), blocks) {
		t.Fatal("the loaded account writes other blocks")
	}
	if !reflect.DeepEqual(r.Snapshot(), s.Snapshot()) {
		t.Fatal("the loaded account differs")
	}
	for _, f := range []string{"W eq true", "Y lt 100", "Z ne ''"} {
		a, _ := walk(t, s, "mixed", Query{Filter: mustFilter(t, f)}, nil)
		b, _ := walk(t, r, "mixed", Query{Filter: mustFilter(t, f)}, nil)
		if len(a) != len(b) || len(a) == 0 {
			t.Fatalf("%s: %d matches loaded, %d before", f, len(b), len(a))
		}
	}
}
