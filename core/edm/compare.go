package edm

import (
	"cmp"
	"strings"
	"unicode/utf8"
)

// CompareStrings orders two strings ordinally by UTF-16 code unit, as the
// service (a .NET program) does. This equals byte order of the UTF-8 text
// except that characters beyond U+FFFF (surrogate pairs in UTF-16) sort
// before U+E000–U+FFFF.
func CompareStrings(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return cmp.Compare(len(a), len(b))
	}
	if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
		return cmp.Compare(a[i], b[i])
	}
	// Back up to the start of the runes that differ.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if c := cmp.Compare(utf16Key(ra), utf16Key(rb)); c != 0 {
		return c
	}
	// Different bytes that decode alike (U+FFFD for bytes that are not
	// UTF-8) are still different strings (F-KEY-UTF8).
	return strings.Compare(a[i:], b[i:])
}

// utf16Key maps a code point to a key whose order is the order of the
// code point's first UTF-16 code unit (and then the rest).
func utf16Key(r rune) rune {
	if r >= 0xE000 && r <= 0xFFFF {
		return r + 0x110000 // above every supplementary code point
	}
	return r
}

// UTF16Len returns the length of s in UTF-16 code units, the unit of the
// service's string limits.
func UTF16Len(s string) int {
	// ASCII, eight bytes at a time: one unit each. The rest of the text
	// from the first word holding another byte is counted rune by rune.
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return i + utf16LenFrom(s[i:])
		}
	}
	// The last few bytes (all of a short name) together, without a branch
	// a byte.
	var high byte
	for j := i; j < len(s); j++ {
		high |= s[j]
	}
	if high < utf8.RuneSelf {
		return len(s)
	}
	return i + utf16LenFrom(s[i:])
}

// utf16LenFrom is UTF16Len one byte or rune at a time; an invalid byte
// counts one unit (U+FFFD).
func utf16LenFrom(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Compare is a total order over values: first by type (in the order of the
// Type constants), then within a type naturally — strings by UTF-16 code unit,
// Binary and Guid byte-wise (a Guid's bytes are in text order), DateTime
// chronologically at 100 ns, numbers numerically with NaN below every other
// Double (as .NET's Double.CompareTo), false before true.
func Compare(a, b Value) int {
	if a.t() != b.t() {
		return cmp.Compare(a.t(), b.t())
	}
	switch a.t() {
	case String:
		return CompareStrings(a.str(), b.str())
	case Binary, Guid:
		return strings.Compare(a.str(), b.str())
	case Int32, Int64, DateTime:
		return cmp.Compare(int64(a.n), int64(b.n))
	case Boolean:
		return cmp.Compare(a.n, b.n)
	case Double:
		return cmp.Compare(a.Float(), b.Float()) // NaN first, as cmp.Compare does
	}
	return 0
}

// Size is the value's contribution to an entity's size by the published
// formula (F-SIZE-FORMULA): String 2×UTF-16 units + 4, Binary bytes + 4,
// DateTime/Double/Int64 8, Int32 4, Guid 16, Boolean 1.
func (v Value) Size() int {
	switch v.t() {
	case String:
		return 2*UTF16Len(v.str()) + 4
	case Binary:
		return len(v.str()) + 4
	case DateTime, Double, Int64:
		return 8
	case Int32:
		return 4
	case Guid:
		return 16
	case Boolean:
		return 1
	}
	return 0
}
