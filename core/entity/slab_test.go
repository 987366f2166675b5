package entity

import (
	"reflect"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// TestSlabRemembersOnlyWhatHolds checks Check through a Slab, which skips
// the repeated-name and name-rule checks for names it has seen: drafts in
// turn, each answered as Check answers it without a Slab.
func TestSlabRemembersOnlyWhatHolds(t *testing.T) {
	i32 := func(name string, v int32) Field { return Field{Name: name, Value: edm.Int32Value(v)} }
	drafts := []Draft{
		keys(i32("a", 1), i32("b", 2)),
		keys(i32("a", 1), i32("b", 2)),  // the same names: known distinct
		keys(i32("a", 1), i32("a", 2)),  // as long, one repeated
		keys(i32("a", 1), i32("b", 2)),  // back to distinct
		keys(i32("b", 1), i32("b", 2)),  // the second name as before, the first repeats it
		keys(i32("a", 1), i32("1b", 2)), // a bad name where a good one was
		keys(i32("a", 1), i32("b", 2), i32("c", 3)),
		keys(i32("a", 1), i32("b", 2), i32("c", 3)),
		{Fields: []Field{str("PartitionKey", "pk"), str("PartitionKey", "pk"), i32("a", 1), i32("b", 2)}},
	}
	var slab Slab
	for i, d := range drafts {
		want := Check(d)
		d.Slab = &slab
		got := Check(d)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("draft %d: through a slab %+v, alone %+v", i, got, want)
		}
	}
	if _, err := Build(Draft{Fields: drafts[2].Fields, Slab: &slab}); codeOf(err) != tableerr.DuplicatePropertiesSpecified {
		t.Errorf("a repeated name after a distinct draft: %v", err)
	}
}
