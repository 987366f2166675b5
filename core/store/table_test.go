package store

import (
	"math/rand"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

// TestItemOrderMatchesUTF16 checks the packed-key comparison against the
// plain UTF-16 comparison on keys around the 8-character packed length, with
// U+0000 and U+007F at the edges of the 7-bit packing.
func TestItemOrderMatchesUTF16(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ascii := []string{"a", "b", "\x00", "\x7f", "A", "0"}
	other := []string{"é", "😀", "\uE000", "\uFFFD"}
	key := func() string {
		n := r.Intn(4)
		s := []string{"", "abcdefg", "abcdefgh"}[r.Intn(3)] // ties in the packed part
		for i := 0; i < n; i++ {
			if r.Intn(10) == 0 {
				s += other[r.Intn(len(other))]
			} else {
				s += ascii[r.Intn(len(ascii))]
			}
		}
		return s
	}
	for i := 0; i < 100000; i++ {
		a, b := probe(key(), key()), probe(key(), key())
		want := edm.CompareStrings(a.r.pk(), b.r.pk())
		if want == 0 {
			want = edm.CompareStrings(a.r.rk(), b.r.rk())
		}
		if got := itemLess(a, b); got != (want < 0) {
			t.Fatalf("itemLess(%q/%q, %q/%q) = %v, want %v", a.r.pk(), a.r.rk(), b.r.pk(), b.r.rk(), got, want < 0)
		}
		if got := itemLess(b, a); got != (want > 0) {
			t.Fatalf("itemLess(%q/%q, %q/%q) = %v, want %v", b.r.pk(), b.r.rk(), a.r.pk(), a.r.rk(), got, want > 0)
		}
	}
}
