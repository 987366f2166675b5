package store

import (
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

// TestKeptSizeMatchesTheFormula checks that the size the store keeps with
// each entity is the published formula's, after an insert, a merge that
// adds and retypes properties, and a replace, and that a clone measures
// again.
func TestKeptSizeMatchesTheFormula(t *testing.T) {
	s := newStore(t, "sizes")
	steps := []Op{
		{Kind: Insert, Entity: ent("p", "r", str("Name", "Ada"), i32("Age", 36))},
		{Kind: InsertOrMerge, Entity: ent("p", "r", str("Age", "thirty-six"), str("Notes", "héllo 🙂"))},
		{Kind: InsertOrReplace, Entity: ent("p", "r", prop("Blob", edm.BinaryValue([]byte{1, 2, 3})))},
	}
	for i, op := range steps {
		if _, err := s.Apply("sizes", op); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		e, err := s.Get("sizes", "p", "r")
		if err != nil {
			t.Fatal(err)
		}
		c := e.Clone()
		if c.KeptSize != 0 {
			t.Fatalf("step %d: a clone kept the size %d", i, c.KeptSize)
		}
		if e.KeptSize == 0 || e.KeptSize != c.Size() || e.Size() != e.KeptSize {
			t.Fatalf("step %d: kept size %d, Size() %d, formula %d", i, e.KeptSize, e.Size(), c.Size())
		}
	}
}
