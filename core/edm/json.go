package edm

import (
	"math"
	"strconv"
)

// JSONKind is the kind of a JSON scalar a property value arrived as.
type JSONKind uint8

// The JSON scalar kinds a property value can have (null is handled by the
// caller: the service never stores nulls).
const (
	JSONString JSONKind = iota + 1
	JSONNumber
	JSONBool
)

// FromJSON reads a property value from its JSON form, as the service does
// (F-NUMBER-INFERENCE,
// F-ANNOTATED-VALUES). text is the unescaped string for JSONString, the
// literal exactly as written for JSONNumber ("5", "5.0", "1e3") and "true" or
// "false" for JSONBool. typeName is the property's @odata.type annotation, or
// "" when it has none.
//
// Without an annotation an integer literal within Int32 is an Int32, any other
// number a Double (so 20.0 stays a Double and 3000000000 becomes one), and
// strings and booleans are what they look like.
func FromJSON(kind JSONKind, text, typeName string) (Value, error) {
	if typeName == "" {
		switch kind {
		case JSONString:
			return StringValue(text), nil
		case JSONBool:
			return BoolValue(text == "true"), nil
		}
		if i, ok := smallInt(text); ok {
			if i >= math.MinInt32 && i <= math.MaxInt32 {
				return Int32Value(int32(i)), nil
			}
		} else if isInteger(text) {
			if i, err := strconv.ParseInt(text, 10, 32); err == nil {
				return Int32Value(int32(i)), nil
			}
		}
		if !isDecimal(text) {
			return Value{}, malformed(Double, text, "not a JSON number")
		}
		f, err := parseDecimal(text)
		if err != nil {
			return Value{}, err
		}
		return DoubleValue(f), nil
	}
	t, ok := ParseType(typeName)
	if !ok {
		return Value{}, UnknownTypeError(typeName)
	}
	wrong := func() (Value, error) {
		return Value{}, &ParseError{Type: t, Text: text, Problem: WrongJSONKind, Reason: "a JSON " + kindName(kind) + " cannot carry " + t.String(), ID: "json-" + kindName(kind)}
	}
	switch t {
	case Boolean:
		switch kind {
		case JSONBool:
			return BoolValue(text == "true"), nil
		case JSONString: // as Storage Explorer sends it (F-STRING-TYPED-VALUES)
			return ParseString(Boolean, text)
		}
		return wrong()
	case Int32:
		if kind == JSONBool {
			return wrong()
		}
		// A JSON number, or its digits in a string (F-STRING-TYPED-VALUES).
		return ParseString(Int32, text)
	case Int64:
		// The OData v3 reader wants an Int64 quoted: a bare JSON number is
		// refused (F-INT64-QUOTED).
		if kind != JSONString {
			return wrong()
		}
		return ParseString(Int64, text)
	case Double:
		if kind == JSONBool {
			return wrong()
		}
		if kind == JSONNumber && !isDecimal(text) {
			return wrong()
		}
		return ParseString(Double, text)
	default: // String, Binary, DateTime, Guid travel as JSON strings
		if kind != JSONString {
			return wrong()
		}
		return ParseString(t, text)
	}
}

func kindName(k JSONKind) string {
	switch k {
	case JSONString:
		return "string"
	case JSONNumber:
		return "number"
	case JSONBool:
		return "boolean"
	}
	return "value"
}
