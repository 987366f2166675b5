package edm

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// ScanLiteral reads the $filter literal at the start of s (OData v3 literal forms) and
// returns its value and how many bytes it used:
//
//	'O''Brien'                         Edm.String ('' is a quote)
//	123  -7                            Edm.Int32 (Edm.Int64 if it does not fit)
//	123L                               Edm.Int64
//	1.5  2.0  1E+15  1.5d              Edm.Double
//	true  false                        Edm.Boolean
//	datetime'2008-07-10T00:00:00Z'     Edm.DateTime
//	guid'c9da6455-213d-42c9-9a79-3e9149a57833'
//	X'ABCD'  binary'ABCD'              Edm.Binary (hex digits)
//
// It does not look past the literal: the caller's lexer decides whether what
// follows may follow.
func ScanLiteral(s string) (Value, int, error) {
	switch {
	case strings.HasPrefix(s, "'"):
		text, n, ok := scanQuoted(s)
		if !ok {
			return Value{}, 0, malformed(String, s, "the string literal is not closed")
		}
		return StringValue(text), n, nil
	case strings.HasPrefix(s, "true"):
		return BoolValue(true), 4, nil
	case strings.HasPrefix(s, "false"):
		return BoolValue(false), 5, nil
	case strings.HasPrefix(s, "datetime'"):
		return scanTyped(s, len("datetime"), DateTime)
	case strings.HasPrefix(s, "guid'"):
		return scanTyped(s, len("guid"), Guid)
	case strings.HasPrefix(s, "binary'"):
		return scanTyped(s, len("binary"), Binary)
	case strings.HasPrefix(s, "X'"), strings.HasPrefix(s, "x'"):
		return scanTyped(s, 1, Binary)
	}
	return scanNumber(s)
}

// ParseLiteral reads s as exactly one $filter literal.
func ParseLiteral(s string) (Value, error) {
	v, n, err := ScanLiteral(s)
	if err != nil {
		return Value{}, err
	}
	if n != len(s) {
		return Value{}, malformed(v.t(), s, "unexpected text after the literal")
	}
	return v, nil
}

// scanQuoted reads '…' with ” as an escaped quote.
func scanQuoted(s string) (text string, n int, ok bool) {
	var b []byte
	seg := 1
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b = append(b, s[seg:i+1]...) // keeps one of the two quotes
			i++
			seg = i + 1
			continue
		}
		b = append(b, s[seg:i]...)
		return string(b), i + 1, true
	}
	return "", 0, false
}

func scanTyped(s string, prefix int, t Type) (Value, int, error) {
	body, n, ok := scanQuoted(s[prefix:])
	if !ok {
		return Value{}, 0, malformed(t, s, "the literal is not closed")
	}
	var v Value
	var err error
	if t == Binary {
		b, herr := hex.DecodeString(body)
		if herr != nil {
			return Value{}, 0, malformed(Binary, body, "not an even number of hex digits")
		}
		v = BinaryValue(b)
	} else {
		v, err = ParseString(t, body)
		if err != nil {
			return Value{}, 0, err
		}
	}
	return v, prefix + n, nil
}

func scanNumber(s string) (Value, int, error) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == digits {
		return Value{}, 0, malformed(Invalid, s, "not a literal")
	}
	isFloat := false
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		isFloat = true
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			isFloat = true
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	text := s[:i]
	if i < len(s) {
		switch s[i] {
		case 'L', 'l':
			if isFloat {
				return Value{}, 0, malformed(Int64, s[:i+1], "an Int64 literal has no fraction or exponent")
			}
			v, err := ParseString(Int64, text)
			return v, i + 1, err
		case 'd', 'D':
			v, err := ParseString(Double, text)
			return v, i + 1, err
		case 'm', 'M', 'f', 'F':
			return Value{}, 0, malformed(Invalid, s[:i+1], "decimal and single literals are not supported")
		}
	}
	if isFloat {
		v, err := ParseString(Double, text)
		return v, i, err
	}
	if n, err := strconv.ParseInt(text, 10, 32); err == nil {
		return Int32Value(int32(n)), i, nil
	}
	v, err := ParseString(Int64, text)
	return v, i, err
}

// Literal returns the value's canonical $filter literal, which ScanLiteral
// reads back to an equal value: 'it”s', 5, 5L, 2.0, true,
// datetime'2008-07-10T00:00:00Z', guid'…', X'ABCD'.
func (v Value) Literal() string {
	switch v.t() {
	case String:
		return "'" + strings.ReplaceAll(v.str(), "'", "''") + "'"
	case Int32:
		return strconv.FormatInt(v.Int(), 10)
	case Int64:
		return strconv.FormatInt(v.Int(), 10) + "L"
	case Double:
		return FormatDouble(v.Float())
	case Boolean:
		return strconv.FormatBool(v.Bool())
	case DateTime:
		return "datetime'" + v.Ticks().String() + "'"
	case Guid:
		return "guid'" + formatGuid(v.str()) + "'"
	case Binary:
		return "X'" + strings.ToUpper(hex.EncodeToString([]byte(v.str()))) + "'"
	}
	return ""
}
