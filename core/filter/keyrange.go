package filter

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// Bound is one end of a key range.
type Bound struct {
	Set bool // false: unbounded
	// Key is the bounding key; meaningful only when Set.
	Key string
	// Inclusive says whether Key itself is inside the range.
	Inclusive bool
}

// Range is the part of a table a query can be confined to, derived from the
// PartitionKey and RowKey comparisons that every match must satisfy. RowKey
// bounds apply only when the PartitionKey is fixed to one value. The whole
// filter is still evaluated on what the range yields.
type Range struct {
	// PKLow and PKHigh bound the PartitionKey.
	PKLow, PKHigh Bound
	// RKLow and RKHigh bound the RowKey; unset unless the partition is fixed.
	RKLow, RKHigh Bound
	Empty         bool // no key can satisfy the bounds
}

// PartitionFixed reports whether the range lies inside one partition.
func (r Range) PartitionFixed() bool {
	return r.PKLow.Set && r.PKHigh.Set && r.PKLow.Inclusive && r.PKHigh.Inclusive && r.PKLow.Key == r.PKHigh.Key
}

// KeyRange derives the range from the top-level "and" terms of a filter
// (nil: the whole table). Only string constants narrow the range: any other
// constant on a key is a type mismatch, which the evaluator settles.
func KeyRange(n Node) Range {
	var r Range
	if n == nil {
		return r
	}
	var pk, rk []*Compare
	var walk func(Node)
	walk = func(n Node) {
		switch n := n.(type) {
		case *And:
			walk(n.L)
			walk(n.R)
		case *Compare:
			if n.Value.Type() != edm.String {
				return
			}
			switch n.Property {
			case entity.PartitionKey:
				pk = append(pk, n)
			case entity.RowKey:
				rk = append(rk, n)
			}
		}
	}
	walk(n)
	for _, c := range pk {
		tighten(&r.PKLow, &r.PKHigh, c)
	}
	if r.PartitionFixed() {
		for _, c := range rk {
			tighten(&r.RKLow, &r.RKHigh, c)
		}
	}
	r.Empty = emptyBetween(r.PKLow, r.PKHigh) || r.PartitionFixed() && emptyBetween(r.RKLow, r.RKHigh)
	return r
}

func tighten(low, high *Bound, c *Compare) {
	k := c.Value.Str()
	switch c.Op {
	case Eq:
		raise(low, Bound{true, k, true})
		lower(high, Bound{true, k, true})
	case Gt:
		raise(low, Bound{true, k, false})
	case Ge:
		raise(low, Bound{true, k, true})
	case Lt:
		lower(high, Bound{true, k, false})
	case Le:
		lower(high, Bound{true, k, true})
	}
}

// raise keeps the higher (tighter) of two lower bounds.
func raise(cur *Bound, b Bound) {
	if !cur.Set {
		*cur = b
		return
	}
	switch c := edm.CompareStrings(b.Key, cur.Key); {
	case c > 0:
		*cur = b
	case c == 0 && !b.Inclusive:
		cur.Inclusive = false
	}
}

// lower keeps the lower (tighter) of two upper bounds.
func lower(cur *Bound, b Bound) {
	if !cur.Set {
		*cur = b
		return
	}
	switch c := edm.CompareStrings(b.Key, cur.Key); {
	case c < 0:
		*cur = b
	case c == 0 && !b.Inclusive:
		cur.Inclusive = false
	}
}

func emptyBetween(low, high Bound) bool {
	if !low.Set || !high.Set {
		return false
	}
	c := edm.CompareStrings(low.Key, high.Key)
	return c > 0 || c == 0 && !(low.Inclusive && high.Inclusive)
}

// AboveLow reports whether key lies at or above the lower bound.
func (b Bound) AboveLow(key string) bool {
	if !b.Set {
		return true
	}
	c := edm.CompareStrings(key, b.Key)
	return c > 0 || c == 0 && b.Inclusive
}

// BelowHigh reports whether key lies at or below the upper bound.
func (b Bound) BelowHigh(key string) bool {
	if !b.Set {
		return true
	}
	c := edm.CompareStrings(key, b.Key)
	return c < 0 || c == 0 && b.Inclusive
}
