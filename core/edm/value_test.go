package edm

import (
	"testing"
	"unsafe"
)

// A Value is two words (a stored entity holds one per property), and its
// type survives the packing whatever the bytes: a one-byte string equal to
// a type tag is still a string, and a number whose bits equal a string
// type's code is still a number.
func TestValuePacking(t *testing.T) {
	if n := unsafe.Sizeof(Value{}); n != 16 {
		t.Fatalf("a Value is %d bytes, want 16", n)
	}
	for tt := Invalid; tt <= String; tt++ {
		s := StringValue(string([]byte{byte(tt)}))
		if s.Type() != String || s.Str() != string([]byte{byte(tt)}) {
			t.Errorf("the string %q: type %v, text %q", s.Str(), s.Type(), s.Str())
		}
		if b := BinaryValue([]byte{byte(tt)}); b.Type() != Binary || len(b.Bytes()) != 1 {
			t.Errorf("the binary %x: type %v", b.Bytes(), b.Type())
		}
	}
	for _, v := range []Value{Int32Value(int32(String)), Int64Value(int64(Guid)), BoolValue(true), DoubleValue(0), DateTimeValue(Ticks(Binary))} {
		if v.Str() != "" || v.Equal(StringValue(string([]byte{byte(v.Type())}))) {
			t.Errorf("%v: a number reads as text %q", v, v.Str())
		}
	}
	if got := Int32Value(int32(String)); got.Type() != Int32 || got.Int() != int64(String) {
		t.Errorf("Int32 %d: type %v, value %d", String, got.Type(), got.Int())
	}
	if (Value{}).Type() != Invalid || !(Value{}).Equal(Value{}) {
		t.Error("the zero Value is not Invalid")
	}
	if !StringValue("x").Equal(StringValue(string([]byte{'x'}))) || StringValue("x").Equal(BinaryValue([]byte("x"))) {
		t.Error("Equal compares type and value")
	}
	for _, tt := range []Type{String, Binary} {
		if e := BytesValue(tt, ""); e.Type() != tt || e.Str() != "" || !e.Equal(BytesValue(tt, string([]byte{}))) || e.Equal(Value{}) {
			t.Errorf("the empty %v: type %v", tt, e.Type())
		}
	}
	text := "0123456789abcdef and more"
	if g := BytesValue(Guid, text[:16]); g.Type() != Guid || g.GuidBytes() != [16]byte([]byte(text[:16])) || unsafe.StringData(g.Str()) != unsafe.StringData(text) {
		t.Errorf("BytesValue(Guid): type %v, bytes %x, not the text given", g.Type(), g.GuidBytes())
	}
	if g := BytesValue(Guid, text); g.Type() != Invalid {
		t.Errorf("a Guid of %d bytes: type %v", len(text), g.Type())
	}
	if v := BytesValue(Int32, "1"); v.Type() != Invalid {
		t.Errorf("BytesValue(Int32): type %v", v.Type())
	}
}

// Equal tells a value kept in bits from one kept in bytes even when the
// words happen to match: the zero Value is no zero number, and an empty
// string is no number whose bits equal its type's place in the word.
func TestEqualAcrossKinds(t *testing.T) {
	zero := []Value{Int32Value(0), Int64Value(0), BoolValue(false), DoubleValue(0), DateTimeValue(0)}
	for _, v := range zero {
		if (Value{}).Equal(v) || v.Equal(Value{}) {
			t.Errorf("the zero Value equals %v %v", v.Type(), v)
		}
	}
	for _, tt := range []Type{String, Binary} {
		empty := BytesValue(tt, "")
		n := Int64Value(int64(tt) << typeShift)
		if empty.Equal(n) || n.Equal(empty) {
			t.Errorf("the empty %v equals the Int64 %d", tt, n.Int())
		}
	}
}
