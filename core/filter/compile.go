package filter

import (
	"cmp"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// Matcher is a compiled filter: it reports whether entity e matches. props
// must be e.Properties: a caller that keeps the property slice beside its
// entity pointer (as the store's tree does) lets a test of a custom
// property read the properties without reading the entity first, one
// memory access per entity fewer in a scan of a table the caches do not
// hold.
type Matcher func(e *entity.Entity, props []entity.Property) bool

// Compile turns a filter into a Matcher, deciding once per query what each
// node needs (which property, which constant, which operator) so that a
// scan calls closures instead of walking the tree and looking names up
// through an interface for every entity. It answers exactly as Eval does;
// Compile(nil) is nil.
func Compile(n Node) Matcher {
	switch n := n.(type) {
	case nil:
		return nil
	case *And:
		l, r := Compile(n.L), Compile(n.R)
		return func(e *entity.Entity, ps []entity.Property) bool { return l(e, ps) && r(e, ps) }
	case *Or:
		l, r := Compile(n.L), Compile(n.R)
		return func(e *entity.Entity, ps []entity.Property) bool { return l(e, ps) || r(e, ps) }
	case *Not:
		x := Compile(n.X)
		return func(e *entity.Entity, ps []entity.Property) bool { return !x(e, ps) }
	case *BoolProperty:
		get := getter(n.Name)
		return func(e *entity.Entity, ps []entity.Property) bool {
			v, ok := get(e, ps)
			return ok && v.Type() == edm.Boolean && v.Bool()
		}
	case *Compare:
		return compileCompare(n)
	}
	return func(e *entity.Entity, _ []entity.Property) bool { return n.Eval(e) }
}

// compileCompare specializes the commonest comparisons: a key against a
// string constant, and a custom property against a constant of its own type
// (the property's type is only known per entity, so the general rule stays
// as the fallback).
func compileCompare(n *Compare) Matcher {
	c, op := n.Value, n.Op
	if c.Type() == edm.String && (n.Property == entity.PartitionKey || n.Property == entity.RowKey) {
		s := c.Str()
		if n.Property == entity.PartitionKey {
			return func(e *entity.Entity, _ []entity.Property) bool {
				return op.holds(edm.CompareStrings(e.PartitionKey, s))
			}
		}
		return func(e *entity.Entity, _ []entity.Property) bool { return op.holds(edm.CompareStrings(e.RowKey, s)) }
	}
	get := getter(n.Property)
	switch ct := c.Type(); ct {
	case edm.Int32, edm.Int64, edm.DateTime:
		if isSystem(n.Property) {
			break
		}
		// A custom property against an integer or DateTime constant, the
		// search inlined: same-typed values compare as integers (as
		// edm.Compare does); any other pairing takes the general rule.
		name, ci := n.Property, c.Int()
		return func(_ *entity.Entity, ps []entity.Property) bool {
			for i := range ps {
				if p := &ps[i]; p.Name == name {
					if p.Value.Type() == ct {
						return op.holds(cmp.Compare(p.Value.Int(), ci))
					}
					return op.holds(compareTyped(p.Value, c))
				}
			}
			return false
		}
	}
	return func(e *entity.Entity, ps []entity.Property) bool {
		v, ok := get(e, ps)
		return ok && op.holds(compareTyped(v, c))
	}
}

// getter resolves a property name once: a system property reads its field,
// a custom one searches the properties (e's, passed beside it).
func getter(name string) func(*entity.Entity, []entity.Property) (edm.Value, bool) {
	if isSystem(name) {
		return func(e *entity.Entity, _ []entity.Property) (edm.Value, bool) { return e.Get(name) }
	}
	return func(_ *entity.Entity, ps []entity.Property) (edm.Value, bool) {
		for i := range ps {
			if ps[i].Name == name {
				return ps[i].Value, true
			}
		}
		return edm.Value{}, false
	}
}

func isSystem(name string) bool {
	return name == entity.PartitionKey || name == entity.RowKey || name == entity.Timestamp
}
