package filter

import (
	"cmp"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// Compile turns a filter into a predicate over entities, deciding once per
// query what each node needs (which property, which constant, which
// operator) so that a scan calls closures instead of walking the tree and
// looking names up through an interface for every entity. It answers exactly
// as Eval does; Compile(nil) is nil.
func Compile(n Node) func(*entity.Entity) bool {
	switch n := n.(type) {
	case nil:
		return nil
	case *And:
		l, r := Compile(n.L), Compile(n.R)
		return func(e *entity.Entity) bool { return l(e) && r(e) }
	case *Or:
		l, r := Compile(n.L), Compile(n.R)
		return func(e *entity.Entity) bool { return l(e) || r(e) }
	case *Not:
		x := Compile(n.X)
		return func(e *entity.Entity) bool { return !x(e) }
	case *BoolProperty:
		get := getter(n.Name)
		return func(e *entity.Entity) bool {
			v, ok := get(e)
			return ok && v.Type() == edm.Boolean && v.Bool()
		}
	case *Compare:
		return compileCompare(n)
	}
	return func(e *entity.Entity) bool { return n.Eval(e) }
}

// compileCompare specializes the commonest comparisons: a key against a
// string constant, and a custom property against a constant of its own type
// (the property's type is only known per entity, so the general rule stays
// as the fallback).
func compileCompare(n *Compare) func(*entity.Entity) bool {
	c, op := n.Value, n.Op
	if c.Type() == edm.String && (n.Property == entity.PartitionKey || n.Property == entity.RowKey) {
		s := c.Str()
		if n.Property == entity.PartitionKey {
			return func(e *entity.Entity) bool { return op.holds(edm.CompareStrings(e.PartitionKey, s)) }
		}
		return func(e *entity.Entity) bool { return op.holds(edm.CompareStrings(e.RowKey, s)) }
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
		return func(e *entity.Entity) bool {
			for i := range e.Properties {
				if p := &e.Properties[i]; p.Name == name {
					if p.Value.Type() == ct {
						return op.holds(cmp.Compare(p.Value.Int(), ci))
					}
					return op.holds(compareTyped(p.Value, c))
				}
			}
			return false
		}
	}
	return func(e *entity.Entity) bool {
		v, ok := get(e)
		return ok && op.holds(compareTyped(v, c))
	}
}

// getter resolves a property name once: a system property reads its field,
// a custom one searches the entity's properties.
func getter(name string) func(*entity.Entity) (edm.Value, bool) {
	if isSystem(name) {
		return func(e *entity.Entity) (edm.Value, bool) { return e.Get(name) }
	}
	return func(e *entity.Entity) (edm.Value, bool) {
		for i := range e.Properties {
			if e.Properties[i].Name == name {
				return e.Properties[i].Value, true
			}
		}
		return edm.Value{}, false
	}
}

func isSystem(name string) bool {
	return name == entity.PartitionKey || name == entity.RowKey || name == entity.Timestamp
}
