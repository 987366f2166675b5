package filter

import (
	"cmp"

	"github.com/tableplay/tableplay/core/edm"
)

// Matcher is a compiled filter: it reports whether the record r matches.
// A record reads its properties by name (system properties included), so
// a store can answer from its own packed form of an entity without
// building the entity first.
type Matcher func(r Record) bool

// Compile turns a filter into a Matcher, deciding once per query what each
// node needs (which property, which constant, which operator) so that a
// scan calls closures instead of walking the tree for every entity. It
// answers exactly as Eval does; Compile(nil) is nil.
func Compile(n Node) Matcher {
	switch n := n.(type) {
	case nil:
		return nil
	case *And:
		l, r := Compile(n.L), Compile(n.R)
		return func(rec Record) bool { return l(rec) && r(rec) }
	case *Or:
		l, r := Compile(n.L), Compile(n.R)
		return func(rec Record) bool { return l(rec) || r(rec) }
	case *Not:
		x := Compile(n.X)
		return func(rec Record) bool { return !x(rec) }
	case *BoolProperty:
		name := n.Name
		return func(rec Record) bool {
			v, ok := rec.Get(name)
			return ok && v.Type() == edm.Boolean && v.Bool()
		}
	case *Compare:
		return compileCompare(n)
	}
	return n.Eval
}

// compileCompare specializes the commonest comparisons: a property against
// a constant of its own type, compared as integers or strings without the
// general rule (the property's type is only known per entity, so the
// general rule stays as the fallback).
func compileCompare(n *Compare) Matcher {
	c, op, name := n.Value, n.Op, n.Property
	switch ct := c.Type(); ct {
	case edm.String:
		s := c.Str()
		return func(rec Record) bool {
			v, ok := rec.Get(name)
			if !ok {
				return false
			}
			if v.Type() == edm.String {
				return op.holds(edm.CompareStrings(v.Str(), s))
			}
			return op.holds(compareTyped(v, c))
		}
	case edm.Int32, edm.Int64, edm.DateTime:
		ci := c.Int() // a DateTime's ticks
		return func(rec Record) bool {
			v, ok := rec.Get(name)
			if !ok {
				return false
			}
			if v.Type() == ct {
				return op.holds(cmp.Compare(v.Int(), ci))
			}
			return op.holds(compareTyped(v, c))
		}
	}
	return func(rec Record) bool {
		v, ok := rec.Get(name)
		return ok && op.holds(compareTyped(v, c))
	}
}
