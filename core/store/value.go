package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
)

// The one encoding of a value in the store: a packed row holds its
// properties' values in it, a snapshot block holds its entities' values in
// it, and a change record's entities are a snapshot block (journal.go), so
// what an entity holds is written by appendBlockValue and read back by the
// readers below, whichever of the three it is in. A value is a type code
// byte (blockTypes' index), then: String and Binary as a uvarint length and
// the bytes (a String's UTF-8), Boolean one byte 0 or 1, Int32, Int64 and
// DateTime as varints (a DateTime in ticks), Double as 8 bytes (IEEE 754,
// little-endian), Guid as its 16 bytes. A row's reader trusts the bytes (the
// store wrote them); a block's checks each field, so that a row made from
// a block or a record is as sound as one packed from an entity.

// blockTypes are the types' codes in a block; their order is the format.
var blockTypes = []edm.Type{edm.String, edm.Binary, edm.Boolean, edm.Int32, edm.Int64, edm.Double, edm.DateTime, edm.Guid}

// appendBlockValue appends v; ok is false for a value of no known type.
// The codes are blockTypes' indexes, written out: this runs for every
// property of every entity packed or written.
func appendBlockValue(b []byte, v edm.Value) (_ []byte, ok bool) {
	switch v.Type() {
	case edm.String:
		return appendBlockString(append(b, 0), v.Str()), true
	case edm.Binary:
		return appendBlockString(append(b, 1), v.Str()), true
	case edm.Boolean:
		if v.Bool() {
			return append(b, 2, 1), true
		}
		return append(b, 2, 0), true
	case edm.Int32:
		return binary.AppendVarint(append(b, 3), v.Int()), true
	case edm.Int64:
		return binary.AppendVarint(append(b, 4), v.Int()), true
	case edm.Double:
		return binary.LittleEndian.AppendUint64(append(b, 5), math.Float64bits(v.Float())), true
	case edm.DateTime:
		return binary.AppendVarint(append(b, 6), int64(v.Ticks())), true
	case edm.Guid:
		return append(append(b, 7), v.Str()...), true
	}
	// Every value the store holds has one of the types above.
	return b, false
}

// value reads a value.
func (r *rowReader) value() edm.Value {
	t := blockTypes[r.s[r.i]]
	r.i++
	switch t {
	case edm.String, edm.Binary:
		return edm.BytesValue(t, r.str())
	case edm.Guid:
		s := r.s[r.i : r.i+16]
		r.i += 16
		return edm.BytesValue(t, s)
	case edm.Boolean:
		r.i++
		return edm.BoolValue(r.s[r.i-1] != 0)
	case edm.Int32:
		return edm.Int32Value(int32(r.varint()))
	case edm.Int64:
		return edm.Int64Value(r.varint())
	case edm.DateTime:
		return edm.DateTimeValue(edm.Ticks(r.varint()))
	case edm.Double:
		var bits uint64
		for k := 7; k >= 0; k-- {
			bits = bits<<8 | uint64(r.s[r.i+k])
		}
		r.i += 8
		return edm.DoubleValue(math.Float64frombits(bits))
	}
	return edm.Value{}
}

// skipValue passes over a value.
func (r *rowReader) skipValue() {
	t := blockTypes[r.s[r.i]]
	r.i++
	switch t {
	case edm.String, edm.Binary:
		n := int(r.uvarint())
		r.i += n
	case edm.Guid:
		r.i += 16
	case edm.Boolean:
		r.i++
	case edm.Double:
		r.i += 8
	default: // the varints
		for r.s[r.i] >= 0x80 {
			r.i++
		}
		r.i++
	}
}

// value reads a value: a String, Binary or Guid as its bytes in the block
// (inText), any other type as v.
func (r *blockReader) value() (v edm.Value, t edm.Type, raw []byte, inText bool) {
	code := uint64(r.byte())
	if r.err == nil && code >= uint64(len(blockTypes)) {
		r.fail(fmt.Errorf("unknown type code %d", code))
	}
	if r.err != nil {
		return edm.Value{}, 0, nil, false
	}
	t = blockTypes[code]
	switch t {
	case edm.String:
		raw = r.bytes()
		if r.err == nil && !utf8.Valid(raw) {
			r.fail(errors.New("a string that is not UTF-8"))
		}
		return v, t, raw, true
	case edm.Binary:
		return v, t, r.bytes(), true
	case edm.Guid:
		return v, t, r.take(16), true
	case edm.Boolean:
		switch r.byte() {
		case 0:
			return edm.BoolValue(false), t, nil, false
		case 1:
			return edm.BoolValue(true), t, nil, false
		}
		r.fail(errors.New("a Boolean neither 0 nor 1"))
	case edm.Int32:
		i := r.varint()
		if i < math.MinInt32 || i > math.MaxInt32 {
			r.fail(errors.New("an Int32 out of range"))
		}
		return edm.Int32Value(int32(i)), t, nil, false
	case edm.Int64:
		return edm.Int64Value(r.varint()), t, nil, false
	case edm.DateTime:
		return edm.DateTimeValue(r.ticks()), t, nil, false
	case edm.Double:
		if b := r.take(8); b != nil {
			return edm.DoubleValue(math.Float64frombits(binary.LittleEndian.Uint64(b))), t, nil, false
		}
	}
	return edm.Value{}, t, nil, false
}
