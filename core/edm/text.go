package edm

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
)

// ParseString reads a value of type t from its string form: the form an
// annotated JSON string carries ("123" for Edm.Int64, base64 for Edm.Binary,
// "NaN" for Edm.Double, …) and the form the playground's editor sends.
func ParseString(t Type, s string) (Value, error) {
	switch t {
	case String:
		return StringValue(s), nil
	case Binary:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return Value{}, malformed(Binary, s, "not valid base64")
		}
		return BinaryValue(b), nil
	case Boolean:
		// Any letter case, as the service reads "False" and "FALSE"
		// (F-STRING-TYPED-VALUES).
		switch {
		case strings.EqualFold(s, "true"):
			return BoolValue(true), nil
		case strings.EqualFold(s, "false"):
			return BoolValue(false), nil
		}
		return Value{}, malformed(Boolean, s, "not true or false")
	case DateTime:
		ticks, err := ParseDateTime(s)
		if err != nil {
			return Value{}, err
		}
		return DateTimeValue(ticks), nil
	case Double:
		f, err := parseDoubleText(s)
		if err != nil {
			return Value{}, err
		}
		return DoubleValue(f), nil
	case Guid:
		g, ok := parseGuid(s)
		if !ok {
			return Value{}, malformed(Guid, s, "not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)")
		}
		return GuidValue(g), nil
	case Int32:
		if i, ok := smallInt(s); ok && i >= math.MinInt32 && i <= math.MaxInt32 {
			return Int32Value(int32(i)), nil
		}
		if !isInteger(s) {
			return Value{}, malformed(Int32, s, "not an integer")
		}
		i, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return Value{}, malformed(Int32, s, "outside the range of a 32-bit integer")
		}
		return Int32Value(int32(i)), nil
	case Int64:
		if i, ok := smallInt(s); ok {
			return Int64Value(i), nil
		}
		if !isInteger(s) {
			return Value{}, malformed(Int64, s, "not an integer")
		}
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Value{}, failure(Int64, s, Overflow, "outside the range of a 64-bit integer")
		}
		return Int64Value(i), nil
	}
	return Value{}, failure(t, s, UnknownType, "not an Edm type")
}

// smallInt reads an optionally signed run of 1 to 18 decimal digits, which
// cannot overflow 64 bits: the common integer, without strconv's general
// path. ok is false for anything else, left to the full reading.
func smallInt(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	if neg {
		n = -n
	}
	return n, true
}

// isInteger reports whether s is an optionally signed run of decimal digits.
func isInteger(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// Text returns the value's string form, the inverse of ParseString: what the
// editor shows and what an annotated JSON string carries.
func (v Value) Text() string {
	switch v.t() {
	case String:
		return v.str()
	case Binary:
		return base64.StdEncoding.EncodeToString([]byte(v.str()))
	case Boolean:
		return strconv.FormatBool(v.Bool())
	case DateTime:
		return v.Ticks().String()
	case Double:
		return FormatDouble(v.Float())
	case Guid:
		return formatGuid(v.str())
	case Int32, Int64:
		return strconv.FormatInt(v.Int(), 10)
	}
	return ""
}

// String describes the value for debugging and test failures, e.g.
// Edm.Int64("5").
func (v Value) String() string {
	if v.t() == Invalid {
		return "<invalid>"
	}
	return v.t().String() + "(" + strconv.Quote(v.Text()) + ")"
}

// parseGuid accepts the .NET forms: 32 hex digits, optionally with dashes
// (8-4-4-4-12) and optionally wrapped in {} or ().
func parseGuid(s string) (g [16]byte, ok bool) {
	if len(s) == 38 && (s[0] == '{' && s[37] == '}' || s[0] == '(' && s[37] == ')') {
		s = s[1:37]
	}
	dashed := false
	switch len(s) {
	case 36:
		if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
			return g, false
		}
		dashed = true
	case 32:
	default:
		return g, false
	}
	j := 0 // the index in s of byte i's first digit
	for i := 0; i < 16; i++ {
		if dashed && (i == 4 || i == 6 || i == 8 || i == 10) {
			j++ // over the dash
		}
		hi, lo := hexDigits[s[j]], hexDigits[s[j+1]]
		if hi|lo > 15 {
			return g, false
		}
		g[i] = hi<<4 | lo
		j += 2
	}
	return g, true
}

func formatGuid(raw string) string { return string(appendGuid(make([]byte, 0, 36), raw)) }

// appendGuid writes a Guid's 16 bytes as lowercase 8-4-4-4-12 hex.
func appendGuid(b []byte, raw string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(raw); i++ {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hex[raw[i]>>4], hex[raw[i]&15])
	}
	return b
}

// hexDigits maps each byte to its value as a hex digit, 0xff for a byte
// that is not one: one look-up a digit.
var hexDigits = func() (t [256]byte) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9':
			t[c] = byte(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()
