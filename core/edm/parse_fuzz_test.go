package edm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// guidByJoining is the straightforward reading parseGuid must agree with:
// the dashes cut out, then 32 hex digits.
func guidByJoining(s string) (g [16]byte, ok bool) {
	if len(s) == 38 && (s[0] == '{' && s[37] == '}' || s[0] == '(' && s[37] == ')') {
		s = s[1:37]
	}
	if len(s) == 36 {
		if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
			return g, false
		}
		s = s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	}
	if len(s) != 32 {
		return g, false
	}
	for i := range g {
		hi, ok1 := hexVal(s[2*i])
		lo, ok2 := hexVal(s[2*i+1])
		if !ok1 || !ok2 {
			return g, false
		}
		g[i] = hi<<4 | lo
	}
	return g, true
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// FuzzParseString: no text panics any type's parser; a Guid reads as the
// straightforward reading does; a type name maps as a search of the eight
// names does; whatever parses prints (Text) to a text that parses back to
// the same value.
func FuzzParseString(f *testing.F) {
	for _, s := range []string{"c9da6455-213d-42c9-9a79-3e9149a57833", "{C9DA6455-213D-42C9-9A79-3E9149A57833}", "(c9da6455213d42c99a793e9149a57833)",
		"c9da6455213d42c99a793e9149a57833", "c9da6455-213d-42c9-9a79_3e9149a57833", "c9da6455-213d-42c9-9a79-3e9149a5783g",
		"2021-06-09T01:17:13.2924321Z", "1600-12-31T23:59:59Z", "2024-02-29T12:00:00.5+01:30", "2023-12-31T23:59:59.9999999-00:00", "9876543210", "-9223372036854775809", "+36", "-0", "007", "999999999999999999", "1000000000000000000", "2147483648", "-2147483648", "NaN", "1e400", "1234.5", "-0.0", "2147483648", "1E-7", "QmFyQmF6UXV4", "QmF=",
		"Edm.Int64", "Edm.Guid", "edm.int64", "TRUE", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := parseGuid(s)
		if wg, wok := guidByJoining(s); g != wg || ok != wok {
			t.Fatalf("parseGuid(%q) = %x %v, want %x %v", s, g, ok, wg, wok)
		}
		if n, ok := smallInt(s); ok {
			if want, err := strconv.ParseInt(s, 10, 64); err != nil || n != want || !isInteger(s) {
				t.Fatalf("smallInt(%q) = %d, strconv %d %v", s, n, want, err)
			}
		} else if n := len(s); n > 0 && n <= 18 && isInteger(s) && s != "+" && s != "-" {
			t.Fatalf("smallInt(%q) refused a short integer", s)
		}
		for _, kind := range []JSONKind{JSONString, JSONNumber, JSONBool} {
			for _, typeName := range []string{"", "Edm.Int32", "Edm.Int64", "Edm.Double"} {
				v, err := FromJSON(kind, s, typeName)
				if err != nil {
					continue
				}
				// An integer read without strconv reads as strconv reads it.
				if (v.Type() == Int32 || v.Type() == Int64) && strconv.FormatInt(v.Int(), 10) != v.Text() {
					t.Fatalf("FromJSON(%v, %q, %q) = %v", kind, s, typeName, v)
				}
				if i, err := strconv.ParseInt(s, 10, 64); (v.Type() == Int32 || v.Type() == Int64) && (err != nil || i != v.Int()) {
					t.Fatalf("FromJSON(%v, %q, %q) = %v, strconv %d %v", kind, s, typeName, v, i, err)
				}
			}
		}
		// An unannotated number that is no Int32 reads as parseDoubleText
		// reads it.
		if v, err := FromJSON(JSONNumber, s, ""); v.Type() != Int32 && isDecimal(s) {
			f, werr := parseDoubleText(s)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || err == nil && v != DoubleValue(f) {
				t.Fatalf("FromJSON(number %q) = %v %v, parseDoubleText %v %v", s, v, err, f, werr)
			}
		}
		// Where the standard library reads the date-time too, it reads the
		// same instant.
		if ticks, err := ParseDateTime(s); err == nil {
			if tm, err := time.Parse(time.RFC3339Nano, s); err == nil && TicksFromTime(tm) != ticks {
				t.Fatalf("ParseDateTime(%q) = %v, time.Parse %v", s, ticks, tm)
			}
		}
		want, wantOK := Invalid, false
		for _, ty := range Types() {
			if ty.String() == s {
				want, wantOK = ty, true
			}
		}
		if got, ok := ParseType(s); got != want || ok != wantOK {
			t.Fatalf("ParseType(%q) = %v %v, want %v %v", s, got, ok, want, wantOK)
		}
		for _, ty := range Types() {
			v, err := ParseString(ty, s)
			if err != nil {
				if _, ok := err.(*ParseError); !ok {
					t.Fatalf("ParseString(%v, %q): error %T", ty, s, err)
				}
				continue
			}
			again, err := ParseString(ty, v.Text())
			if err != nil || Compare(v, again) != 0 {
				t.Fatalf("ParseString(%v, %q) = %v, its text %q reads %v, %v", ty, s, v, v.Text(), again, err)
			}
		}
	})
}

// jsonContentByBytes is the byte-by-byte escaping AppendJSONStringContent
// must agree with.
func jsonContentByBytes(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			for _, u := range utf16.Encode([]rune{r}) {
				b = fmt.Appendf(b, "\\u%04x", u)
			}
			i += size
			continue
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
		i++
	}
	return b
}

// FuzzAppendJSONString: the escaping (a plain prefix copied whole) agrees
// with escaping byte by byte, and its output is a JSON string that reads
// back as the text (invalid UTF-8 as U+FFFD).
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain text", "quote\" and \\ back", "ctl\x00\x1f\x7f", "\n\r\t\b\f", "café 🙂", "bad \xff utf8", "\u2028<>&", "a\"", "\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendJSONStringContent([]byte("x"), s)
		if want := jsonContentByBytes([]byte("x"), s); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
		var back string
		if err := json.Unmarshal(AppendJSONString(nil, s), &back); err != nil || back != strings.ToValidUTF8(s, "\uFFFD") && utf8.ValidString(s) {
			t.Fatalf("%q reads back as %q (%v)", s, back, err)
		}
	})
}
