package edm

import "math"

// Value is one typed property value. It is small (a type tag, one word and a
// string header) and immutable; the zero Value has type Invalid.
type Value struct {
	t Type
	n uint64 // Int32/Int64 bits, Boolean 0/1, DateTime ticks, Double bits
	s string // String text, Binary bytes, Guid's 16 bytes in text order
}

// Type reports the value's Edm type.
func (v Value) Type() Type { return v.t }

// StringValue makes an Edm.String.
func StringValue(s string) Value { return Value{t: String, s: s} }

// BinaryValue makes an Edm.Binary holding a copy of b.
func BinaryValue(b []byte) Value { return Value{t: Binary, s: string(b)} }

// BoolValue makes an Edm.Boolean.
func BoolValue(b bool) Value {
	if b {
		return Value{t: Boolean, n: 1}
	}
	return Value{t: Boolean}
}

// Int32Value makes an Edm.Int32.
func Int32Value(i int32) Value { return Value{t: Int32, n: uint64(int64(i))} }

// Int64Value makes an Edm.Int64.
func Int64Value(i int64) Value { return Value{t: Int64, n: uint64(i)} }

// DoubleValue makes an Edm.Double (NaN and the infinities included).
func DoubleValue(f float64) Value { return Value{t: Double, n: math.Float64bits(f)} }

// GuidValue makes an Edm.Guid from its 16 bytes in text order (the order the
// hex digits appear in "xxxxxxxx-xxxx-…").
func GuidValue(b [16]byte) Value { return Value{t: Guid, s: string(b[:])} }

// DateTimeValue makes an Edm.DateTime from ticks (see Ticks). It does not
// check the service's 1601 lower bound; ParseDateTime does.
func DateTimeValue(t Ticks) Value { return Value{t: DateTime, n: uint64(t)} }

// Str returns an Edm.String's text.
func (v Value) Str() string { return v.s }

// Bytes returns a copy of an Edm.Binary's bytes.
func (v Value) Bytes() []byte { return []byte(v.s) }

// Bool returns an Edm.Boolean's value.
func (v Value) Bool() bool { return v.n != 0 }

// Int returns an Edm.Int32's or Edm.Int64's value.
func (v Value) Int() int64 { return int64(v.n) }

// Float returns an Edm.Double's value.
func (v Value) Float() float64 { return math.Float64frombits(v.n) }

// Ticks returns an Edm.DateTime's instant.
func (v Value) Ticks() Ticks { return Ticks(v.n) }

// GuidBytes returns an Edm.Guid's 16 bytes in text order.
func (v Value) GuidBytes() (b [16]byte) {
	copy(b[:], v.s)
	return b
}

// Equal reports whether two values have the same type and the same value.
// Doubles compare by bits, so NaN equals NaN here (unlike in a filter).
func (v Value) Equal(w Value) bool { return v == w }
