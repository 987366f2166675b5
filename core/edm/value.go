package edm

import (
	"math"
	"unsafe"
)

// Value is one typed property value, immutable; the zero Value has type
// Invalid. It is two words (16 bytes), as a stored entity holds one per
// property: an Edm.String, Binary or Guid keeps a pointer to its bytes in p
// and their length and its type in n (the type in the top byte); any other
// type keeps its bits in n and its type as p, a pointer to one of the
// bytes of tags, told from a value's bytes by where it points (a value's
// bytes never lie in tags, a variable of this package).
type Value struct {
	p *byte  // String text, Binary bytes, Guid's 16 bytes in text order (nil when empty); or the type's tag
	n uint64 // Int32/Int64 bits, Boolean 0/1, DateTime ticks, Double bits; or the length and the type
}

// tags holds the type tags of the types whose value is n: the tag of type t
// is &tags[t].
var tags [9]byte

// typeShift is where n holds the type of a value kept in p; lengths are
// far below it.
const typeShift = 56

// bits makes a value of type t, one of those kept in n.
func bits(t Type, n uint64) Value { return Value{p: &tags[t], n: n} }

// bytesOf makes a value of type t, one of those kept in p.
func bytesOf(t Type, s string) Value {
	if s == "" {
		return Value{n: uint64(t) << typeShift}
	}
	return Value{p: unsafe.StringData(s), n: uint64(len(s)) | uint64(t)<<typeShift}
}

// tagged reports whether v is of a type kept in n, and which.
func (v Value) tagged() (Type, bool) {
	at := uintptr(unsafe.Pointer(v.p)) - uintptr(unsafe.Pointer(&tags[0]))
	return Type(at), at < uintptr(len(tags))
}

// t is the value's type.
func (v Value) t() Type {
	if t, ok := v.tagged(); ok {
		return t
	}
	return Type(v.n >> typeShift)
}

// str is the bytes of a String, Binary or Guid; "" for any other type.
func (v Value) str() string {
	if _, ok := v.tagged(); ok || v.p == nil {
		return ""
	}
	return unsafe.String(v.p, int(v.n&(1<<typeShift-1)))
}

// Type reports the value's Edm type.
func (v Value) Type() Type { return v.t() }

// StringValue makes an Edm.String.
func StringValue(s string) Value { return bytesOf(String, s) }

// BinaryValue makes an Edm.Binary holding a copy of b.
func BinaryValue(b []byte) Value { return bytesOf(Binary, string(b)) }

// BytesValue makes a value of type t, String, Binary or Guid (then s is
// its 16 bytes in text order), that holds s itself rather than a copy: a
// reader cutting an entity's values from one string allocates once. It
// returns the zero Value for any other type, or a Guid not 16 bytes long.
func BytesValue(t Type, s string) Value {
	if t != String && t != Binary && (t != Guid || len(s) != 16) {
		return Value{}
	}
	return bytesOf(t, s)
}

// BoolValue makes an Edm.Boolean.
func BoolValue(b bool) Value {
	if b {
		return bits(Boolean, 1)
	}
	return bits(Boolean, 0)
}

// Int32Value makes an Edm.Int32.
func Int32Value(i int32) Value { return bits(Int32, uint64(int64(i))) }

// Int64Value makes an Edm.Int64.
func Int64Value(i int64) Value { return bits(Int64, uint64(i)) }

// DoubleValue makes an Edm.Double (NaN and the infinities included).
func DoubleValue(f float64) Value { return bits(Double, math.Float64bits(f)) }

// GuidValue makes an Edm.Guid from its 16 bytes in text order (the order the
// hex digits appear in "xxxxxxxx-xxxx-…").
func GuidValue(b [16]byte) Value { return bytesOf(Guid, string(b[:])) }

// DateTimeValue makes an Edm.DateTime from ticks (see Ticks). It does not
// check the service's 1601 lower bound; ParseDateTime does.
func DateTimeValue(t Ticks) Value { return bits(DateTime, uint64(t)) }

// Str returns an Edm.String's text.
func (v Value) Str() string { return v.str() }

// Bytes returns a copy of an Edm.Binary's bytes.
func (v Value) Bytes() []byte { return []byte(v.str()) }

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
	copy(b[:], v.str())
	return b
}

// Equal reports whether two values have the same type and the same value.
// Doubles compare by bits, so NaN equals NaN here (unlike in a filter).
func (v Value) Equal(w Value) bool {
	_, vt := v.tagged()
	_, wt := w.tagged()
	if vt || wt {
		return v == w
	}
	// Both kept in p: n holds the type and the length.
	return v.n == w.n && v.str() == w.str()
}
