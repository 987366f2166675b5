package edm

import (
	"encoding/base64"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// NeedsAnnotation reports whether the value's type cannot be inferred from its
// JSON form and so carries an @odata.type annotation at minimal and full
// metadata: Int64, DateTime, Guid, Binary, and the Double specials (written
// as strings). No value is annotated at nometadata.
func (v Value) NeedsAnnotation() bool {
	switch v.t() {
	case Int64, DateTime, Guid, Binary:
		return true
	case Double:
		_, special := DoubleSpecial(v.Float())
		return special
	}
	return false
}

// AppendJSON appends the value as the service writes it in a JSON body:
// Int64 as a string, Double per F-DOUBLE-TEXT (specials as strings), DateTime with up to
// 7 fractional digits, Guid lowercase, Binary as base64.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.t() {
	case String:
		return AppendJSONString(b, v.str())
	case Boolean:
		return strconv.AppendBool(b, v.Bool())
	case Int32:
		return strconv.AppendInt(b, v.Int(), 10)
	case Int64:
		b = append(b, '"')
		b = strconv.AppendInt(b, v.Int(), 10)
		return append(b, '"')
	case Double:
		if s, ok := DoubleSpecial(v.Float()); ok {
			return AppendJSONString(b, s)
		}
		return AppendDouble(b, v.Float())
	case DateTime:
		b = append(b, '"')
		b = v.Ticks().AppendText(b)
		return append(b, '"')
	case Guid:
		b = append(b, '"')
		b = appendGuid(b, v.str())
		return append(b, '"')
	case Binary:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, []byte(v.str()))
		return append(b, '"')
	}
	return append(b, "null"...)
}

// AppendJSONString appends s as a JSON string the way the service's JSON
// writer escapes it: quote, backslash and control characters escaped (the
// usual short forms where JSON has them, \u00xx otherwise), and every
// character beyond ASCII written as \uxxxx, lower-case, a UTF-16 surrogate
// pair beyond U+FFFF (F-JSON-NON-ASCII); other ASCII as is. Invalid UTF-8
// becomes U+FFFD so the output is always valid JSON.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = AppendJSONStringContent(b, s)
	return append(b, '"')
}

// AppendJSONStringContent appends s escaped as AppendJSONString does, without
// the surrounding quotes, so a caller can build one JSON string from pieces.
func AppendJSONStringContent(b []byte, s string) []byte {
	// Most strings need no escaping: they are found so by one table
	// look-up a byte and copied whole.
	i := 0
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	if i == len(s) {
		return append(b, s...)
	}
	return appendJSONEscaped(b, s, i)
}

// jsonPlain marks the bytes AppendJSONStringContent copies as they are:
// ASCII other than control characters, quote and backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONEscaped is AppendJSONStringContent for s whose bytes before i
// are plain.
func appendJSONEscaped(b []byte, s string, i int) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i < len(s) {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c >= utf8.RuneSelf {
			// Invalid UTF-8 decodes as U+FFFD, one byte at a time.
			r, size := utf8.DecodeRuneInString(s[i:])
			b = appendUnicodeEscape(b, r)
			i += size
			start = i
			continue
		}
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		i++
		start = i
	}
	return append(b, s[start:]...)
}

// appendUnicodeEscape appends r as \uxxxx, or as two of them (a surrogate
// pair) beyond the Basic Multilingual Plane.
func appendUnicodeEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
		b = appendUnicodeEscape(b, r1)
		r = r2
	}
	return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}
