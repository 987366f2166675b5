package store

import (
	"math/rand"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

// TestItemOrderMatchesUTF16 checks the inline-prefix comparison against the
// plain UTF-16 comparison on keys around the 8-byte prefix length.
func TestItemOrderMatchesUTF16(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pieces := []string{"a", "b", "z", "A", "0", "~", "é", "😀", "\uE000", "\uFFFD"}
	key := func() string {
		n := r.Intn(11)
		s := ""
		for i := 0; i < n; i++ {
			s += pieces[r.Intn(len(pieces))]
		}
		return s
	}
	for i := 0; i < 20000; i++ {
		a, b := probe(key(), key()), probe(key(), key())
		want := edm.CompareStrings(a.e.PartitionKey, b.e.PartitionKey)
		if want == 0 {
			want = edm.CompareStrings(a.e.RowKey, b.e.RowKey)
		}
		if got := itemLess(a, b); got != (want < 0) {
			t.Fatalf("itemLess(%q/%q, %q/%q) = %v, want %v", a.e.PartitionKey, a.e.RowKey, b.e.PartitionKey, b.e.RowKey, got, want < 0)
		}
	}
}
