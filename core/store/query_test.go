package store

import (
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

func fill(t testing.TB, s *Store, table, pk string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := s.Apply(table, Op{Kind: Insert, Entity: ent(pk, rk(i), i32("n", i))}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPagingEdges(t *testing.T) {
	tests := []struct {
		name   string
		n, top int
		sizes  []int
	}{
		{"exactly 1000", 1000, 0, []int{1000}},
		{"1001", 1001, 0, []int{1000, 1}},
		{"2500", 2500, 0, []int{1000, 1000, 500}},
		{"top across pages", 25, 10, []int{10, 10, 5}},
		{"top exact", 20, 10, []int{10, 10}},
		{"empty", 0, 0, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t, "tbl")
			fill(t, s, "tbl", "p", tt.n)
			got, sizes := walk(t, s, "tbl", Query{Top: tt.top}, nil)
			if len(got) != tt.n || len(sizes) != len(tt.sizes) {
				t.Fatalf("got %d entities in pages %v, want pages %v", len(got), sizes, tt.sizes)
			}
			for i := range sizes {
				if sizes[i] != tt.sizes[i] {
					t.Fatalf("pages %v, want %v", sizes, tt.sizes)
				}
			}
			for i, e := range got {
				if e.RowKey != rk(i) {
					t.Fatalf("entity %d is %s", i, e.RowKey)
				}
			}
		})
	}
}

func TestContinuationNamesNextEntity(t *testing.T) {
	s := newStore(t, "tbl")
	fill(t, s, "tbl", "p", 3)
	p, _ := s.Query("tbl", Query{Top: 2})
	if p.NextPartitionKey != EncodeToken("p") || p.NextRowKey != EncodeToken(rk(2)) {
		t.Errorf("tokens %s %s", p.NextPartitionKey, p.NextRowKey)
	}
	// A continuation that lands on a deleted entity resumes at the next one.
	if _, err := s.Apply("tbl", Op{Kind: Delete, Entity: ent("p", rk(2)), IfMatch: Match{Kind: MatchAny}}); err != nil {
		t.Fatal(err)
	}
	s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", rk(5))})
	p2, _ := s.Query("tbl", Query{Top: 2, NextPartitionKey: p.NextPartitionKey, NextRowKey: p.NextRowKey})
	if len(p2.Entities) != 1 || p2.Entities[0].RowKey != rk(5) || p2.More() {
		t.Errorf("after deleted token: %+v", p2)
	}
	if _, err := s.Query("tbl", Query{NextPartitionKey: "1!9!x", NextRowKey: "1!4!MTM-"}); code(err) != tableerr.InvalidInput {
		t.Errorf("bad token: %v", err)
	}
}

func TestFilteredWalkEqualsScan(t *testing.T) {
	s := newStore(t, "tbl")
	for _, pk := range []string{"a", "b", "c"} {
		fill(t, s, "tbl", pk, 1200)
	}
	f := "PartitionKey ge 'b' and n lt 1100 and n ge 50"
	got, sizes := walk(t, s, "tbl", Query{Filter: mustFilter(t, f), Top: 700}, nil)
	if len(got) != 2*1050 {
		t.Fatalf("%d matches in pages %v", len(got), sizes)
	}
	seen := map[string]bool{}
	for _, e := range got {
		k := e.PartitionKey + "/" + e.RowKey
		if seen[k] || e.PartitionKey == "a" {
			t.Fatalf("unexpected %s", k)
		}
		seen[k] = true
	}
}

func TestPartitionQueryStaysInPartition(t *testing.T) {
	s := newStore(t, "tbl")
	for _, pk := range []string{"a", "b", "c"} {
		fill(t, s, "tbl", pk, 2000)
	}
	p, _ := s.Query("tbl", Query{Filter: mustFilter(t, "PartitionKey eq 'b'")})
	if len(p.Entities) != 1000 || p.Scanned != 1000 || !p.More() {
		t.Errorf("partition page: %d entities, %d scanned", len(p.Entities), p.Scanned)
	}
	p, _ = s.Query("tbl", Query{Filter: mustFilter(t, "PartitionKey eq 'b' and RowKey ge '"+rk(100)+"' and RowKey lt '"+rk(110)+"'")})
	if len(p.Entities) != 10 || p.Scanned != 10 || p.More() {
		t.Errorf("row range: %d entities, %d scanned", len(p.Entities), p.Scanned)
	}
	p, _ = s.Query("tbl", Query{Filter: mustFilter(t, "PartitionKey eq 'b' and RowKey gt '"+rk(1998)+"'")})
	// The seek lands on the excluded bound itself, which is examined too.
	if len(p.Entities) != 1 || p.Entities[0].RowKey != rk(1999) || p.Scanned != 2 {
		t.Errorf("exclusive low: %+v", p)
	}
	p, _ = s.Query("tbl", Query{Filter: mustFilter(t, "PartitionKey eq 'a' and PartitionKey eq 'b'")})
	if len(p.Entities) != 0 || p.Scanned != 0 {
		t.Errorf("empty range scanned %d", p.Scanned)
	}
}

func TestWalkWithConcurrentChanges(t *testing.T) {
	s := newStore(t, "tbl")
	fill(t, s, "tbl", "p", 50)
	// Between pages, delete even entities not yet reached and add new ones;
	// entities present throughout (the odd ones) must appear exactly once.
	step := 0
	got, _ := walk(t, s, "tbl", Query{Top: 7}, func() {
		step++
		s.Apply("tbl", Op{Kind: Delete, Entity: ent("p", rk(48-2*step)), IfMatch: Match{Kind: MatchAny}})
		s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", rk(1000+step))})
		s.Apply("tbl", Op{Kind: Insert, Entity: ent("a-before", rk(step))})
	})
	count := map[string]int{}
	for _, e := range got {
		count[e.RowKey]++
	}
	for i := 1; i < 50; i += 2 {
		if count[rk(i)] != 1 {
			t.Errorf("%s seen %d times", rk(i), count[rk(i)])
		}
	}
	for k, n := range count {
		if n != 1 {
			t.Errorf("%s seen %d times", k, n)
		}
	}
}
