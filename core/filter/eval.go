package filter

import (
	"cmp"

	"github.com/tableplay/tableplay/core/edm"
)

// Eval reports whether both sides match.
func (n *And) Eval(r Record) bool { return n.L.Eval(r) && n.R.Eval(r) }

// Eval reports whether either side matches.
func (n *Or) Eval(r Record) bool { return n.L.Eval(r) || n.R.Eval(r) }

// Eval negates its operand (so "not" of a comparison on a missing property
// is true).
func (n *Not) Eval(r Record) bool { return !n.X.Eval(r) }

// Eval reports whether the record has the property as a Boolean true.
func (n *BoolProperty) Eval(r Record) bool {
	v, ok := r.Get(n.Name)
	return ok && v.Type() == edm.Boolean && v.Bool()
}

// Eval applies the live service's typed comparison (F-TYPED-COMPARISON): a
// missing property never matches, not even "ne"; values of the same type
// compare naturally; an Int64 property widens an Int32 constant and a Double
// property widens Int32 and Int64 constants; any other type mismatch counts
// the property as less than the constant.
func (n *Compare) Eval(r Record) bool {
	v, ok := r.Get(n.Property)
	if !ok {
		return false
	}
	return n.Op.holds(compareTyped(v, n.Value))
}

// compareTyped orders a property value against a constant.
func compareTyped(v, c edm.Value) int {
	vt, ct := v.Type(), c.Type()
	switch {
	case !Comparable(vt, ct):
		return -1 // type mismatch: the property counts as less than the constant
	case vt == ct:
		return edm.Compare(v, c)
	case vt == edm.Int64 && ct == edm.Int32:
		return cmp.Compare(v.Int(), c.Int())
	case vt == edm.Double && (ct == edm.Int32 || ct == edm.Int64):
		return cmp.Compare(v.Float(), float64(c.Int()))
	}
	return -1
}

func (o Op) holds(c int) bool {
	switch o {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Gt:
		return c > 0
	case Ge:
		return c >= 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	}
	return false
}

// Comparable reports whether a property of type prop compares with a
// constant of type constant by value; otherwise the comparison is a type
// mismatch (see Compare.Eval).
func Comparable(prop, constant edm.Type) bool {
	return prop == constant || prop == edm.Int64 && constant == edm.Int32 ||
		prop == edm.Double && (constant == edm.Int32 || constant == edm.Int64)
}

// MismatchHolds reports what the comparison answers for an entity whose
// property has a type that does not compare with the constant: the property
// counts as less than the constant, so lt, le and ne hold and eq, gt, ge do
// not.
func (n *Compare) MismatchHolds() bool { return n.Op.holds(-1) }
