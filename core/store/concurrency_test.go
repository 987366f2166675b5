package store

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/tableerr"
)

// TestConcurrency runs writers, transactions, conditional read-modify-write
// loops and paged readers together (run it with -race) and checks the
// invariants afterwards: no write lost, transactions seen whole, pages
// ordered.
func TestConcurrency(t *testing.T) {
	s := newStore(t, "tbl")
	const writers, txers, readers, rounds = 4, 2, 3, 150
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	report := func(format string, args ...any) {
		select {
		case errs <- fmt.Sprintf(format, args...):
		default:
		}
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("counter", "c", i32("n", 0))}); err != nil {
		t.Fatal(err)
	}
	var increments [writers]int
	// The readers' filters are parsed here: t.Fatal (in mustFilter) may
	// only be called from the test's own goroutine.
	txFilter := make([]filter.Node, txers)
	for x := range txFilter {
		txFilter[x] = mustFilter(t, "PartitionKey eq 'tx"+strconv.Itoa(x)+"'")
	}

	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			pk := "w" + strconv.Itoa(w)
			for i := 0; i < rounds; i++ {
				if _, err := s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: ent(pk, rk(i%20), i32("v", i))}); err != nil {
					report("writer %d: %v", w, err)
				}
				// A conditional increment of a shared counter: retry on 412.
				for try := 0; try < 1000; try++ {
					cur, err := s.Get("tbl", "counter", "c")
					if err != nil {
						report("counter read: %v", err)
						return
					}
					n, _ := cur.Get("n")
					_, err = s.Apply("tbl", Op{Kind: Merge, IfMatch: Match{Kind: MatchETag, ETag: cur.Timestamp},
						Entity: ent("counter", "c", i32("n", int(n.Int())+1))})
					if err == nil {
						increments[w]++
						break
					}
					if err.Code != tableerr.UpdateConditionNotSatisfied {
						report("counter write: %v", err)
						return
					}
				}
			}
		}(w)
	}
	for x := 0; x < txers; x++ {
		wg.Add(1)
		go func(x int) {
			defer wg.Done()
			pk := "tx" + strconv.Itoa(x)
			for g := 0; g < rounds; g++ {
				ops := make([]Op, 10)
				for i := range ops {
					ops[i] = Op{Kind: InsertOrReplace, Entity: ent(pk, rk(i), i32("gen", g))}
				}
				if g%5 == 4 { // a failing transaction must leave no trace
					ops[9] = Op{Kind: Replace, IfMatch: Match{Kind: MatchETag, ETag: 1}, Entity: ent(pk, rk(9), i32("gen", -1))}
				}
				if _, err := s.Transact("tbl", ops); (err != nil) != (g%5 == 4) {
					report("transaction %s/%d: %+v", pk, g, err)
				}
			}
		}(x)
	}
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds/3; i++ {
				for x := 0; x < txers; x++ {
					p, err := s.Query("tbl", Query{Filter: txFilter[x]})
					if err != nil {
						report("query: %v", err)
						continue
					}
					gens := map[int64]int{}
					for _, e := range p.Entities {
						g, _ := e.Get("gen")
						gens[g.Int()]++
					}
					if len(gens) > 1 || len(p.Entities) != 0 && len(p.Entities) != 10 {
						report("torn transaction visible: %v (%d entities)", gens, len(p.Entities))
					}
				}
				q := Query{Top: 7}
				for pages := 0; pages < 500; pages++ {
					p, err := s.Query("tbl", q)
					if err != nil {
						report("paged query: %v", err)
						break
					}
					for j := 1; j < len(p.Entities); j++ {
						if !keyLess(p.Entities[j-1], p.Entities[j]) {
							report("page out of order")
						}
					}
					if !p.More() {
						break
					}
					q.NextPartitionKey, q.NextRowKey = p.NextPartitionKey, p.NextRowKey
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	total := 0
	for _, n := range increments {
		total += n
	}
	c, err := s.Get("tbl", "counter", "c")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Get("n"); int(n.Int()) != total || total != writers*rounds {
		t.Errorf("counter %d, %d successful increments, want %d: a write was lost", n.Int(), total, writers*rounds)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < 20; i++ {
			e, err := s.Get("tbl", "w"+strconv.Itoa(w), rk(i))
			if err != nil {
				t.Errorf("writer %d row %d: %v", w, i, err)
				continue
			}
			v, _ := e.Get("v")
			// The writer's last round that wrote row i.
			if last := (rounds-1-i)/20*20 + i; v.Int() != int64(last) {
				t.Errorf("writer %d row %d: v = %v, want %d", w, i, v, last)
			}
		}
	}
	for x := 0; x < txers; x++ {
		p, err := s.Query("tbl", Query{Filter: txFilter[x]})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Entities) != 10 {
			t.Errorf("tx%d: %d entities, want 10", x, len(p.Entities))
		}
		for _, e := range p.Entities {
			if g, _ := e.Get("gen"); g != edm.Int32Value(rounds-2) { // the last successful generation
				t.Errorf("tx%d %s: gen %v", x, e.RowKey, g)
			}
		}
	}
}
