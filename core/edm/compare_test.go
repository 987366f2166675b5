package edm

import (
	"math"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestCompareStringsIsUTF16Order(t *testing.T) {
	words := []string{"", "a", "ab", "b", "B", "é", "\uE000", "\uFFFF", "😀", "😀a", "a😀", "\U0010FFFF", "z", "\u00ff", "Ā"}
	less16 := func(a, b string) bool {
		ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
		for i := 0; i < len(ua) && i < len(ub); i++ {
			if ua[i] != ub[i] {
				return ua[i] < ub[i]
			}
		}
		return len(ua) < len(ub)
	}
	for _, a := range words {
		for _, b := range words {
			want := 0
			if less16(a, b) {
				want = -1
			} else if less16(b, a) {
				want = 1
			}
			if got := CompareStrings(a, b); got != want {
				t.Errorf("CompareStrings(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
	// The case that differs from byte order: U+1F600 sorts before U+E000.
	if CompareStrings("😀", "\uE000") >= 0 {
		t.Error("supplementary character should sort before U+E000")
	}
}

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "你好": 2, "😀": 2, "a😀b": 4} {
		if got := UTF16Len(s); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzUTF16Len: the word-at-a-time count equals the length of the text
// encoded as UTF-16 (an invalid byte is one U+FFFD).
func FuzzUTF16Len(f *testing.F) {
	for _, s := range []string{"", "abcdefgh", "abcdefghi😀", "0123456é", "01234567\xff89", "你好abcdefgh", strings.Repeat("x", 40) + "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := UTF16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	})
}

func TestCompareWithinTypes(t *testing.T) {
	ordered := [][]Value{
		{DoubleValue(math.NaN()), DoubleValue(math.Inf(-1)), DoubleValue(-1), DoubleValue(0), DoubleValue(0.5), DoubleValue(math.Inf(1))},
		{Int32Value(math.MinInt32), Int32Value(-1), Int32Value(0), Int32Value(math.MaxInt32)},
		{Int64Value(math.MinInt64), Int64Value(-1), Int64Value(math.MaxInt64)},
		{BoolValue(false), BoolValue(true)},
		{BinaryValue(nil), BinaryValue([]byte{0}), BinaryValue([]byte{0, 0}), BinaryValue([]byte{1}), BinaryValue([]byte{255})},
		{mustDate(t, "1601-01-01T00:00:00Z"), mustDate(t, "2000-01-01T00:00:00.0000001Z"), mustDate(t, "2000-01-01T00:00:00.0000002Z")},
		{mustGuid(t, "00000000-0000-0000-0000-000000000001"), mustGuid(t, "0000000a-0000-0000-0000-000000000000"), mustGuid(t, "ffffffff-0000-0000-0000-000000000000")},
		{StringValue(""), StringValue("A"), StringValue("a"), StringValue("😀"), StringValue("\uFFFD")},
	}
	for _, vals := range ordered {
		for i := range vals {
			for j := range vals {
				want := 0
				if i < j {
					want = -1
				} else if i > j {
					want = 1
				}
				if got := Compare(vals[i], vals[j]); got != want {
					t.Errorf("Compare(%v, %v) = %d, want %d", vals[i], vals[j], got, want)
				}
			}
		}
	}
	mixed := []Value{StringValue("a"), Int32Value(1), BoolValue(true), BinaryValue(nil)}
	sort.Slice(mixed, func(i, j int) bool { return Compare(mixed[i], mixed[j]) < 0 })
	if mixed[0].Type() != Binary || mixed[3].Type() != String {
		t.Errorf("cross-type order = %v", mixed)
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		v    Value
		want int
	}{
		{StringValue("abc"), 10},
		{StringValue("😀"), 8},
		{BinaryValue(make([]byte, 10)), 14},
		{DoubleValue(1), 8},
		{Int64Value(1), 8},
		{mustDate(t, "2000-01-01T00:00:00Z"), 8},
		{Int32Value(1), 4},
		{mustGuid(t, "00000000-0000-0000-0000-000000000001"), 16},
		{BoolValue(true), 1},
	}
	for _, tt := range tests {
		if got := tt.v.Size(); got != tt.want {
			t.Errorf("%v.Size() = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// Strings equal only when their bytes are: bytes that are not UTF-8 decode
// to U+FFFD alike but are different strings, ordered consistently.
func TestCompareStringsNotUTF8(t *testing.T) {
	for _, p := range [][2]string{{"caf\xe9", "caf\xe8"}, {"caf\xe9", "caf\uFFFD"}, {"caf\xc0\x80", "caf\xe9"}, {"ab\xe9zzz", "ab\xe8"}} {
		x, y := CompareStrings(p[0], p[1]), CompareStrings(p[1], p[0])
		if x == 0 || x != -y {
			t.Errorf("%q vs %q: %d, %d", p[0], p[1], x, y)
		}
	}
}
