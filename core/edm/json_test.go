package edm

import (
	"errors"
	"math"
	"testing"
)

func TestFromJSON(t *testing.T) {
	tests := []struct {
		kind     JSONKind
		text     string
		typeName string
		want     Value
	}{
		{JSONNumber, "5", "", Int32Value(5)},
		{JSONNumber, "-2147483648", "", Int32Value(math.MinInt32)},
		{JSONNumber, "5.0", "", DoubleValue(5)},
		{JSONNumber, "20.0", "", DoubleValue(20)},
		{JSONNumber, "3000000000", "", DoubleValue(3e9)},
		{JSONNumber, "2147483648", "", DoubleValue(2147483648)},
		{JSONNumber, "9223372036854775808000", "", DoubleValue(9223372036854775808000)},
		{JSONNumber, "1e3", "", DoubleValue(1000)},
		{JSONString, "5", "Edm.Int64", Int64Value(5)},
		{JSONString, "9223372036854775807", "Edm.Int64", Int64Value(math.MaxInt64)},
		{JSONString, "-9223372036854775808", "Edm.Int64", Int64Value(math.MinInt64)},
		{JSONNumber, "5", "Edm.Double", DoubleValue(5)},
		{JSONString, "1.5", "Edm.Double", DoubleValue(1.5)},
		{JSONString, "Infinity", "Edm.Double", DoubleValue(math.Inf(1))},
		{JSONString, "-Infinity", "Edm.Double", DoubleValue(math.Inf(-1))},
		{JSONNumber, "7", "Edm.Int32", Int32Value(7)},
		// Typed values in JSON strings, as Storage Explorer and the Python
		// SDK's raw-entity test send them (F-STRING-TYPED-VALUES).
		{JSONString, "12345", "Edm.Int32", Int32Value(12345)},
		{JSONString, "-2147483648", "Edm.Int32", Int32Value(math.MinInt32)},
		{JSONString, "False", "Edm.Boolean", BoolValue(false)},
		{JSONString, "false", "Edm.Boolean", BoolValue(false)},
		{JSONString, "FALSE", "Edm.Boolean", BoolValue(false)},
		{JSONString, "True", "Edm.Boolean", BoolValue(true)},
		{JSONString, "tRUE", "Edm.Boolean", BoolValue(true)},
		{JSONString, "text", "", StringValue("text")},
		{JSONString, "text", "Edm.String", StringValue("text")},
		{JSONBool, "true", "", BoolValue(true)},
		{JSONBool, "false", "Edm.Boolean", BoolValue(false)},
		{JSONString, "U29tZUJpbmFyeQ==", "Edm.Binary", BinaryValue([]byte("SomeBinary"))},
		{JSONString, "", "Edm.Binary", BinaryValue(nil)},
		{JSONString, "4185404A-5818-48C3-B9BE-F217DF0DBA6F", "Edm.Guid", mustGuid(t, "4185404a-5818-48c3-b9be-f217df0dba6f")},
	}
	for _, tt := range tests {
		got, err := FromJSON(tt.kind, tt.text, tt.typeName)
		if err != nil {
			t.Errorf("FromJSON(%q, %q): %v", tt.text, tt.typeName, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("FromJSON(%q, %q) = %v, want %v", tt.text, tt.typeName, got, tt.want)
		}
	}
	nan, err := FromJSON(JSONString, "NaN", "Edm.Double")
	if err != nil || nan.Type() != Double || !math.IsNaN(nan.Float()) {
		t.Errorf(`"NaN" + Edm.Double = %v, %v; want NaN`, nan, err)
	}
}

func TestFromJSONErrors(t *testing.T) {
	tests := []struct {
		kind     JSONKind
		text     string
		typeName string
		want     Problem
	}{
		{JSONString, "abc", "Edm.Int64", Malformed},
		{JSONString, "9223372036854775808", "Edm.Int64", Overflow}, // live: generic message
		{JSONString, "12.5", "Edm.Int64", Malformed},
		{JSONString, "not-a-guid", "Edm.Guid", Malformed},
		{JSONString, "4185404a-5818-48c3-b9be-f217df0dba6", "Edm.Guid", Malformed},
		{JSONString, "%%%", "Edm.Binary", Malformed},
		{JSONString, "QQ", "Edm.Binary", Malformed},
		{JSONString, "yesterday", "Edm.DateTime", Malformed},
		{JSONString, "1600-01-01T00:00:00Z", "Edm.DateTime", OutOfRange},
		{JSONString, "1.797693134862316e309", "Edm.Double", Malformed},
		{JSONNumber, "1e400", "", Malformed},
		{JSONString, "x", "Edm.Decimal", UnknownType},
		{JSONString, "x", "edm.string", UnknownType},
		{JSONNumber, "5", "Edm.String", WrongJSONKind},
		{JSONNumber, "5", "Edm.Guid", WrongJSONKind},
		{JSONString, "5.0", "Edm.Int32", Malformed},
		{JSONString, " 5", "Edm.Int32", Malformed},
		{JSONString, "2147483648", "Edm.Int32", Malformed},
		{JSONBool, "true", "Edm.Int32", WrongJSONKind},
		{JSONNumber, "12", "Edm.Int64", WrongJSONKind}, // F-INT64-QUOTED
		{JSONNumber, "9007199254740993", "Edm.Int64", WrongJSONKind},
		{JSONNumber, "5.5", "Edm.Int32", Malformed},
		{JSONNumber, "3000000000", "Edm.Int32", Malformed},
		{JSONBool, "true", "Edm.Int64", WrongJSONKind},
		{JSONString, "yes", "Edm.Boolean", Malformed},
		{JSONString, "1", "Edm.Boolean", Malformed},
		{JSONString, "", "Edm.Boolean", Malformed},
		{JSONNumber, "1", "Edm.Boolean", WrongJSONKind},
	}
	for _, tt := range tests {
		_, err := FromJSON(tt.kind, tt.text, tt.typeName)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Problem != tt.want {
			t.Errorf("FromJSON(%q, %q) error = %v, want problem %d", tt.text, tt.typeName, err, tt.want)
		}
	}
}

func mustGuid(t *testing.T, s string) Value {
	t.Helper()
	v, err := ParseString(Guid, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		v         Value
		want      string
		annotated bool
	}{
		{StringValue("a\"b\\c\n\t\x01é你好/"), `"a\"b\\c\n\t\u0001\u00e9\u4f60\u597d/"`, false},
		{StringValue("\u554a\ua015😀"), `"\u554a\ua015\ud83d\ude00"`, false}, // F-JSON-NON-ASCII
		{Int32Value(-7), `-7`, false},
		{Int64Value(123456789012), `"123456789012"`, true},
		{DoubleValue(20), `20.0`, false},
		{DoubleValue(math.NaN()), `"NaN"`, true},
		{DoubleValue(math.Inf(-1)), `"-Infinity"`, true},
		{BoolValue(false), `false`, false},
		{mustGuid(t, "{C9DA6455-213D-42C9-9A79-3E9149A57833}"), `"c9da6455-213d-42c9-9a79-3e9149a57833"`, true},
		{BinaryValue([]byte("Bar")), `"QmFy"`, true},
		{mustDate(t, "2021-06-09T01:17:08.3345567Z"), `"2021-06-09T01:17:08.3345567Z"`, true},
		{StringValue("bad\xffutf8"), `"bad\ufffdutf8"`, false},
	}
	for _, tt := range tests {
		if got := string(tt.v.AppendJSON(nil)); got != tt.want {
			t.Errorf("%v.AppendJSON = %s, want %s", tt.v, got, tt.want)
		}
		if got := tt.v.NeedsAnnotation(); got != tt.annotated {
			t.Errorf("%v.NeedsAnnotation = %v, want %v", tt.v, got, tt.annotated)
		}
	}
}

func mustDate(t *testing.T, s string) Value {
	t.Helper()
	v, err := ParseString(DateTime, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestTextRoundTrip(t *testing.T) {
	vals := []Value{StringValue("x"), Int32Value(-1), Int64Value(1 << 40), DoubleValue(0.5), DoubleValue(math.Inf(1)),
		BoolValue(true), BinaryValue([]byte{0, 255}), mustDate(t, "2001-02-03T04:05:06.7Z"), mustGuid(t, "00000000-0000-0000-0000-0000000000ff")}
	for _, v := range vals {
		got, err := ParseString(v.Type(), v.Text())
		if err != nil || !got.Equal(v) {
			t.Errorf("ParseString(%v, %q) = %v, %v", v.Type(), v.Text(), got, err)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, ty := range Types() {
		got, ok := ParseType(ty.String())
		if !ok || got != ty {
			t.Errorf("ParseType(%q) = %v, %v", ty.String(), got, ok)
		}
	}
	if _, ok := ParseType("Edm.Decimal"); ok {
		t.Error("Edm.Decimal accepted")
	}
}
