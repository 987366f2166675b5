package store

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// liveHeap is the heap still reachable after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestDeletedBatchEntitiesFreeTheirMemory: 30 rounds of a 100-entity batch
// of ~29 KB entities, 99 of them deleted after: the 30 survivors keep their
// own rows, not their batches' (before: one survivor held its batch's
// packed rows, one string, +86 MB of live heap; now about 30 × 29 KB).
func TestDeletedBatchEntitiesFreeTheirMemory(t *testing.T) {
	s := newStore(t, "Batches")
	big := strings.Repeat("x", 29<<10)
	before := liveHeap()
	for round := 0; round < 30; round++ {
		pk := "p" + strconv.Itoa(round)
		ops := make([]Op, 100)
		for i := range ops {
			ops[i] = Op{Kind: Insert, Entity: ent(pk, strconv.Itoa(i), str("V", big))}
		}
		if _, err := s.Transact("Batches", ops); err != nil {
			t.Fatal(err.Err)
		}
		for i := 1; i < 100; i++ {
			if _, err := s.Apply("Batches", Op{Kind: Delete, Entity: ent(pk, strconv.Itoa(i)), IfMatch: Match{Kind: MatchAny}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	after := liveHeap()
	grew := int64(after) - int64(before)
	t.Logf("live heap %+.1f MB after 30 rounds (30 entities of 29 KB kept)", float64(grew)/(1<<20))
	if grew > 4<<20 {
		t.Fatalf("30 surviving entities of 29 KB hold %.1f MB of live heap", float64(grew)/(1<<20))
	}
	if n, _ := s.Count("Batches"); n != 30 {
		t.Fatalf("%d entities, want 30", n)
	}
}
