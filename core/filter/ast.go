package filter

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
)

// Op is a comparison operator.
type Op uint8

// The comparison operators of the service's $filter.
const (
	Eq Op = iota
	Ne
	Gt
	Ge
	Lt
	Le
)

// String returns the operator's keyword.
func (o Op) String() string {
	switch o {
	case Eq:
		return "eq"
	case Ne:
		return "ne"
	case Gt:
		return "gt"
	case Ge:
		return "ge"
	case Lt:
		return "lt"
	case Le:
		return "le"
	}
	return "?"
}

func parseOp(s string) (Op, bool) {
	for o := Eq; o <= Le; o++ {
		if o.String() == s {
			return o, true
		}
	}
	return 0, false
}

// flip gives the operator with its operands swapped: 5 lt a ≡ a gt 5.
func (o Op) flip() Op {
	switch o {
	case Gt:
		return Lt
	case Ge:
		return Le
	case Lt:
		return Gt
	case Le:
		return Ge
	}
	return o
}

// Node is a filter expression.
type Node interface {
	// Eval reports whether the entity-like record matches.
	Eval(r Record) bool
	appendTo(b *strings.Builder)
}

// Record is what a filter is evaluated against: a property lookup. An
// *entity.Entity is one.
type Record interface {
	Get(name string) (edm.Value, bool)
}

// And is "L and R".
type And struct {
	// L and R are the operands, both of which must hold.
	L, R Node
}

// Or is "L or R".
type Or struct {
	// L and R are the operands, either of which may hold.
	L, R Node
}

// Not is "not X".
type Not struct {
	// X is the negated expression.
	X Node
}

// Compare is "Property op Value"; a constant written on the left is moved to
// the right with the operator flipped.
type Compare struct {
	// Property is the property name compared, system properties included.
	Property string
	// Op is the comparison, as it reads with the property on the left.
	Op Op
	// Value is the constant compared with, typed as it was written.
	Value edm.Value
}

// BoolProperty is a bare property name: true when the entity has it as an
// Edm.Boolean true.
type BoolProperty struct {
	// Name is the property tested.
	Name string
}

// String returns the node's canonical form.
func String(n Node) string {
	var b strings.Builder
	n.appendTo(&b)
	return b.String()
}

func (n *And) appendTo(b *strings.Builder) {
	appendOperand(b, n.L, true)
	b.WriteString(" and ")
	appendOperand(b, n.R, true)
}

func (n *Or) appendTo(b *strings.Builder) {
	n.L.appendTo(b)
	b.WriteString(" or ")
	n.R.appendTo(b)
}

func (n *Not) appendTo(b *strings.Builder) {
	b.WriteString("not ")
	if _, ok := n.X.(*BoolProperty); ok {
		n.X.appendTo(b)
		return
	}
	b.WriteByte('(')
	n.X.appendTo(b)
	b.WriteByte(')')
}

func (n *Compare) appendTo(b *strings.Builder) {
	b.WriteString(n.Property)
	b.WriteByte(' ')
	b.WriteString(n.Op.String())
	b.WriteByte(' ')
	b.WriteString(n.Value.Literal())
}

func (n *BoolProperty) appendTo(b *strings.Builder) { b.WriteString(n.Name) }

// appendOperand parenthesizes an Or inside an And.
func appendOperand(b *strings.Builder, n Node, inAnd bool) {
	if _, ok := n.(*Or); ok && inAnd {
		b.WriteByte('(')
		n.appendTo(b)
		b.WriteByte(')')
		return
	}
	n.appendTo(b)
}

// Properties lists the property names a filter refers to, each once.
func Properties(n Node) []string {
	var out []string
	var walk func(Node)
	add := func(name string) {
		for _, o := range out {
			if o == name {
				return
			}
		}
		out = append(out, name)
	}
	walk = func(n Node) {
		switch n := n.(type) {
		case *And:
			walk(n.L)
			walk(n.R)
		case *Or:
			walk(n.L)
			walk(n.R)
		case *Not:
			walk(n.X)
		case *Compare:
			add(n.Property)
		case *BoolProperty:
			add(n.Name)
		}
	}
	walk(n)
	return out
}
