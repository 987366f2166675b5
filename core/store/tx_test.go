package store

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// writerState is the table's tree as its writer holds it (not a reader's
// snapshot, which a failed transaction leaves as it was whatever it did),
// read without taking a snapshot: every item's packed keys, row and
// the row's fields as stored.
func writerState(t testing.TB, s *Store, table string) string {
	t.Helper()
	tb, err := s.tableFor(table)
	if err != nil {
		t.Fatal(err)
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var b strings.Builder
	tb.work.Scan(func(it item) bool {
		fmt.Fprintf(&b, "%x %x %p %q %d %d\n", it.pk, it.rk, it.r, it.r.data, it.r.ts, it.r.size)
		return true
	})
	return b.String()
}

func TestTransactionRules(t *testing.T) {
	many := func(n int) []Op {
		ops := make([]Op, n)
		for i := range ops {
			ops[i] = Op{Kind: Insert, Entity: ent("p", rk(i))}
		}
		return ops
	}
	tests := []struct {
		name  string
		ops   []Op
		index int
		code  tableerr.Code
	}{
		{"101 operations", many(101), 100, tableerr.InvalidInput},
		{"two partitions", append(many(3), Op{Kind: Insert, Entity: ent("q", "x")}), 3, tableerr.CommandsInBatchActOnDifferentPartitions},
		{"same entity twice", append(many(3), Op{Kind: Merge, Entity: ent("p", rk(1))}), 3, tableerr.InvalidDuplicateRow},
	}
	for _, tt := range tests {
		s := newStore(t, "tbl")
		_, err := s.Transact("tbl", tt.ops)
		if err == nil || err.Index != tt.index || err.Err.Code != tt.code {
			t.Errorf("%s: %+v", tt.name, err)
		}
		if n, _ := s.Count("tbl"); n != 0 {
			t.Errorf("%s: %d entities written", tt.name, n)
		}
	}
	s := newStore(t, "tbl")
	if out, err := s.Transact("tbl", many(100)); err != nil || len(out) != 100 {
		t.Fatalf("100 operations: %v", err)
	}
	_, err := s.Transact("tbl", many(101))
	if err.Err.Message != "The batch request operation exceeds the maximum 100 changes per change set." {
		t.Errorf("message %q", err.Err.Message)
	}
	if _, err := s.Transact("nope", many(1)); err == nil || err.Err.Code != tableerr.TableNotFound || err.Index != 0 {
		t.Errorf("missing table: %+v", err)
	}
	if out, err := s.Transact("tbl", nil); err != nil || out != nil {
		t.Errorf("empty changeset: %v %v", out, err)
	}
}

func TestTransactionRollback(t *testing.T) {
	for _, at := range []int{0, 5, 9} {
		s := newStore(t, "tbl")
		fill(t, s, "tbl", "p", 3)
		before := writerState(t, s, "tbl")
		var ops []Op
		for i := 0; i < 10; i++ {
			ops = append(ops, Op{Kind: InsertOrMerge, Entity: ent("p", rk(100+i), i32("x", i))})
		}
		// Make operation `at` fail: insert an entity that exists.
		ops[at] = Op{Kind: Insert, Entity: ent("p", rk(1))}
		_, err := s.Transact("tbl", ops)
		if err == nil || err.Index != at || err.Err.Code != tableerr.EntityAlreadyExists {
			t.Fatalf("fail at %d: %+v", at, err)
		}
		if writerState(t, s, "tbl") != before {
			t.Errorf("fail at %d: store changed", at)
		}
	}
	// Success: every entity shares one new Timestamp.
	s := newStore(t, "tbl")
	out, err := s.Transact("tbl", []Op{{Kind: Insert, Entity: ent("p", "a")}, {Kind: InsertOrReplace, Entity: ent("p", "b")}})
	if err != nil || out[0].Timestamp != out[1].Timestamp {
		t.Errorf("success: %v", err)
	}
	// Operations see the effects of earlier ones in the same changeset.
	out, err = s.Transact("tbl", []Op{{Kind: Delete, Entity: ent("p", "a"), IfMatch: Match{Kind: MatchETag, ETag: out[0].Timestamp}}, {Kind: Merge, Entity: ent("p", "b", str("m", "1")), IfMatch: Match{Kind: MatchAny}}})
	if err != nil || out[0] != nil || len(out[1].Properties) != 1 {
		t.Errorf("delete+merge: %+v %v", out, err)
	}
}

// TestCheckBatchInKeyOrder: the shortcut for a batch in key order answers
// as the operation-by-operation check does, for every batch of up to four
// operations over two PartitionKeys and three RowKeys, and for the largest
// batches in and out of order.
func TestCheckBatchInKeyOrder(t *testing.T) {
	keys := [][2]string{{"p", "a"}, {"p", "b"}, {"p", "c"}, {"q", "a"}, {"q", "b"}, {"q", "c"}}
	var batches [][]Op
	var grow func(ops []Op)
	grow = func(ops []Op) {
		batches = append(batches, ops)
		if len(ops) == 4 {
			return
		}
		for _, k := range keys {
			grow(append(ops[:len(ops):len(ops)], Op{Kind: Insert, Entity: ent(k[0], k[1])}))
		}
	}
	grow(nil)
	for _, n := range []int{100, 101} {
		ops := make([]Op, n)
		for i := range ops {
			ops[i] = Op{Kind: Insert, Entity: ent("p", rk(i))}
		}
		batches = append(batches, ops, append(ops[1:n:n], ops[0]))
	}
	shortcuts := 0
	for _, ops := range batches {
		i, err := CheckBatch(ops)
		wi, werr := checkBatchInTurn(ops)
		if i != wi || code(err) != code(werr) {
			t.Fatalf("%v: CheckBatch %d %v, in turn %d %v", ops, i, err, wi, werr)
		}
		if inKeyOrder(ops) {
			shortcuts++
		}
	}
	if shortcuts < 10 {
		t.Errorf("only %d of %d batches took the shortcut", shortcuts, len(batches))
	}
}

// TestRollbackInPlace: transactions change the tree in place while no
// reader holds a snapshot; one that fails after 99 inserts, replaces and
// deletes (splitting leaves on the way) leaves exactly what was there.
func TestRollbackInPlace(t *testing.T) {
	s := newStore(t, "tbl")
	for p := 0; p < 3; p++ {
		ops := make([]Op, 100)
		for i := range ops {
			ops[i] = Op{Kind: Insert, Entity: ent("p"+strconv.Itoa(p), rk(2*i), i32("n", i))}
		}
		if _, err := s.Transact("tbl", ops); err != nil {
			t.Fatal(err.Err)
		}
	}
	// No reader has taken a snapshot: the writer owns every node.
	before := writerState(t, s, "tbl")
	for _, failing := range []Kind{Insert, Replace} {
		ops := make([]Op, 0, 100)
		for i := 0; len(ops) < 99; i++ {
			switch i % 3 {
			case 0: // between the stored rows
				ops = append(ops, Op{Kind: Insert, Entity: ent("p1", rk(2*i+1), str("new", "x"))})
			case 1:
				ops = append(ops, Op{Kind: InsertOrReplace, Entity: ent("p1", rk(2*i), str("replaced", "x"))})
			case 2:
				ops = append(ops, Op{Kind: Delete, Entity: ent("p1", rk(2*i)), IfMatch: Match{Kind: MatchAny}})
			}
		}
		last := Op{Kind: Insert, Entity: ent("p1", rk(0))} // fails: the row exists
		if failing == Replace {
			last = Op{Kind: Replace, Entity: ent("p1", rk(1001)), IfMatch: Match{Kind: MatchAny}} // fails: no such row
		}
		ops = append(ops, last)
		if _, err := s.Transact("tbl", ops); err == nil || err.Index != 99 {
			t.Fatalf("%v last: %+v", failing, err)
		}
		if writerState(t, s, "tbl") != before {
			t.Fatalf("a transaction failing at its %v changed the table", failing)
		}
	}
}

// TestNamesPastTheSharedOnesAreOwnCopies: once a table shares as many
// property names as it may, a new name is stored as a copy of its own,
// never as a slice of the text it arrived in (a request body of up to
// 4 MiB, which a small entity would otherwise keep alive).
func TestNamesPastTheSharedOnesAreOwnCopies(t *testing.T) {
	s := newStore(t, "tbl")
	for n, e := 0, 0; n < maxInterned; e++ {
		var props []entity.Property
		for ; len(props) < 200; n++ {
			props = append(props, i32("n"+strconv.Itoa(n), n))
		}
		if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", rk(e), props...)}); err != nil {
			t.Fatal(err)
		}
	}
	text := strings.Repeat(" ", 1<<20) + "Late"
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("q", "r", i32(text[1<<20:], 1))}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("tbl", "q", "r")
	if err != nil || len(got.Properties) != 1 || got.Properties[0].Name != "Late" {
		t.Fatalf("%+v %v", got, err)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	if p := uintptr(unsafe.Pointer(unsafe.StringData(got.Properties[0].Name))); p >= start && p < start+uintptr(len(text)) {
		t.Error("the stored name is a slice of the text it came in")
	}
}
