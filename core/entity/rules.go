package entity

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The rules Check applies, one at a time, for a reader of parts already
// typed (a snapshot's): it checks each property name of a block once, not
// once per entity, and builds its entities without a Draft. Together with
// CheckLimits they are every rule Build applies to a custom property, a key
// and the whole entity.

// CheckName applies the property name rules (F-PROPERTY-NAMES) to a
// custom property's name; it returns the name's length in UTF-16 units,
// which the size formula counts, and the violation, nil when there is none.
func CheckName(name string) (int, *tableerr.Error) {
	n := edm.UTF16Len(name)
	return n, nameViolation(name, n)
}

// CheckKey applies the key rules to key as the value of PartitionKey or
// RowKey (name) and returns the first violation, nil when there is none.
func CheckKey(name, key string) *tableerr.Error {
	var first *tableerr.Error
	checkKey(name, &Field{Name: name, Value: edm.StringValue(key)}, func(_ int, e *tableerr.Error) {
		if first == nil {
			first = e
		}
	})
	return first
}

// CheckValue applies the value size rules (F-STRING-SIZE) to v, the value
// of the property name, and returns its size by the formula and the
// violation, nil when there is none.
func CheckValue(name string, v edm.Value) (int, *tableerr.Error) { return sizeViolation(name, v) }
