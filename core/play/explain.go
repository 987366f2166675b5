package play

import (
	"strings"
	"unicode/utf16"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/store"
)

// Explanation is ExplainFilter's answer.
type Explanation struct {
	// Valid says the filter parses.
	Valid bool `json:"valid"`
	// Canonical is the filter rewritten in one canonical form.
	Canonical string `json:"canonical,omitempty"`
	// Properties are the property names it reads, each once.
	Properties []string `json:"properties,omitempty"`
	// KeyRange is the part of the table a query with it scans.
	KeyRange *KeyRange `json:"keyRange,omitempty"`
	// Clauses are the filter's top-level "and" terms, each with what it does.
	Clauses []Clause `json:"clauses,omitempty"`
	// Error is the service's error when the filter does not parse.
	Error *Card `json:"error,omitempty"`
	// Position is the one the service's message names: UTF-16 units counted
	// from 0, just after the offending token; -1 when there is no syntax error.
	Position int `json:"position"`
	// Span is the offending token (0-based, end excluded) and Column the
	// 1-based character where it starts, as people count; Where says both
	// in a sentence.
	Span *filter.Span `json:"span,omitempty"`
	// Column is the 1-based character where the offending token starts.
	Column int `json:"column,omitempty"`
	// Where says Position and Column in a sentence.
	Where string `json:"where,omitempty"`
	// Hint suggests the fix for a common mistake (a symbol for an operator).
	Hint string `json:"hint,omitempty"`
}

// KeyRange says which part of a table a filter confines a query to.
type KeyRange struct {
	// PartitionKey bounds the partitions scanned; nil scans them all.
	PartitionKey *Bounds `json:"PartitionKey,omitempty"`
	// RowKey bounds the rows within a fixed partition; nil when unbounded
	// or the partition is not fixed.
	RowKey *Bounds `json:"RowKey,omitempty"`
	// Empty says no key satisfies the bounds: the query examines nothing.
	Empty bool `json:"empty"`
	// Statement says the range exactly, e.g. "Scans PartitionKey ≥ 'cust05'
	// and < 'cust08' (cust08 excluded)."
	Statement string `json:"statement"`
}

// Bounds are the two ends of a key range; nil means unbounded.
type Bounds struct {
	// From is the lowest key; nil means unbounded below.
	From *string `json:"from,omitempty"`
	// FromInclusive says From itself is in the range.
	FromInclusive bool `json:"fromInclusive"`
	// To is the highest key; nil means unbounded above.
	To *string `json:"to,omitempty"`
	// ToInclusive says To itself is in the range.
	ToInclusive bool `json:"toInclusive"`
	// Statement is the bounds as comparisons, e.g. "PartitionKey ≥ 'cust05'
	// and < 'cust08'".
	Statement string `json:"statement"`
}

// Clause is one top-level "and" term of a filter. Role is "range" (it
// narrows the key range the query scans), "entity" (it is evaluated on each
// entity the scan examines) or "mismatch" (its types never compare by value,
// so its answer is fixed); Says explains it, and Mismatches name the types a
// table holds that make one of its comparisons a type mismatch.
type Clause struct {
	// Text is the term in canonical form.
	Text string `json:"text"`
	// Role is "range", "entity" or "mismatch".
	Role string `json:"role"`
	// Says explains the term in a sentence.
	Says string `json:"says"`
	// Mismatches are the type mismatches the table's entities cause; empty
	// without a table.
	Mismatches []Mismatch `json:"mismatches,omitempty"`
}

// Mismatch is a comparison a table's entities answer by type, not by value:
// Count of the Sampled entities hold Property as Type, which does not compare
// with the constant's type, so the comparison is Holds for them.
type Mismatch struct {
	// Property is the property compared.
	Property string `json:"property"`
	// Type is the Edm type some entities hold it as.
	Type string `json:"type"`
	// Constant is the Edm type of the constant it is compared with.
	Constant string `json:"constant"`
	// Count is how many sampled entities hold Property as Type.
	Count int `json:"count"`
	// Sampled is how many entities were read, at most a thousand.
	Sampled int `json:"sampled"`
	// Holds is the comparison's fixed answer for those entities.
	Holds bool `json:"holds"`
	// Says explains it in a sentence.
	Says string `json:"says"`
}

func quoteKey(k string) string { return edm.StringValue(k).Literal() }

func boundsOf(loc *locale.Locale, name string, lo, hi filter.Bound) *Bounds {
	if !lo.Set && !hi.Set {
		return nil
	}
	b := &Bounds{}
	var parts []string
	if lo.Set && hi.Set && lo.Inclusive && hi.Inclusive && lo.Key == hi.Key {
		k := lo.Key
		b.From, b.FromInclusive, b.To, b.ToInclusive = &k, true, &k, true
		b.Statement = name + " = " + quoteKey(k)
		return b
	}
	if lo.Set {
		k := lo.Key
		b.From, b.FromInclusive = &k, lo.Inclusive
		op := "> "
		if lo.Inclusive {
			op = "≥ "
		}
		parts = append(parts, op+quoteKey(k))
	}
	if hi.Set {
		k := hi.Key
		b.To, b.ToInclusive = &k, hi.Inclusive
		op := "< "
		if hi.Inclusive {
			op = "≤ "
		}
		parts = append(parts, op+quoteKey(k))
	}
	b.Statement = name + " " + parts[0]
	if len(parts) == 2 {
		b.Statement = loc.T(msgBoundsAnd, "low", b.Statement, "high", parts[1])
	}
	return b
}

// rangeStatement says what a query with this range scans.
func rangeStatement(loc *locale.Locale, kr *KeyRange) string {
	switch {
	case kr.Empty:
		return loc.T(msgScanNothing)
	case kr.PartitionKey == nil:
		return loc.T(msgScanTable)
	case kr.RowKey != nil:
		return loc.T(msgScanRange, "range", kr.PartitionKey.Statement+", "+kr.RowKey.Statement)
	case kr.PartitionKey.From != nil && kr.PartitionKey.To != nil && *kr.PartitionKey.From == *kr.PartitionKey.To && kr.PartitionKey.FromInclusive && kr.PartitionKey.ToInclusive:
		return loc.T(msgScanPartition, "range", kr.PartitionKey.Statement)
	}
	return loc.T(msgScanRange, "range", kr.PartitionKey.Statement)
}

// ExplainFilter parses a $filter: its canonical form, the properties it
// reads, the key range a query scans and what each clause does, or the error
// with where it lies and a hint. With a table (and a store), the clauses also
// name the comparisons its entities answer by type rather than by value.
func (a *API) ExplainFilter(text, table string) []byte {
	n, err, span := filter.ParseSpan(text)
	if err != nil {
		c := cardOf(a.Locale, err)
		out := Explanation{Error: &c, Position: span.End}
		if span.End >= 0 {
			out.Span = &span
			out.Column = span.Start + 1
			tok := utf16Slice(text, span.Start, span.End)
			out.Where = a.Locale.T(msgWhere, "position", span.End, "token", quoteKey(tok), "column", out.Column)
			out.Hint = symbolHint(a.Locale, text, span.Start)
		}
		return mustJSON(out)
	}
	r := filter.KeyRange(n)
	kr := &KeyRange{PartitionKey: boundsOf(a.Locale, entity.PartitionKey, r.PKLow, r.PKHigh), Empty: r.Empty}
	if r.PartitionFixed() {
		kr.RowKey = boundsOf(a.Locale, entity.RowKey, r.RKLow, r.RKHigh)
	}
	kr.Statement = rangeStatement(a.Locale, kr)
	out := Explanation{Valid: true, Canonical: filter.String(n), Properties: filter.Properties(n), KeyRange: kr, Position: -1}
	types := a.sampleTypes(table)
	for _, term := range andTerms(n) {
		out.Clauses = append(out.Clauses, explainClause(a.Locale, term, r.PartitionFixed(), types))
	}
	return mustJSON(out)
}

// utf16Slice cuts s between two UTF-16 offsets.
func utf16Slice(s string, from, to int) string {
	u := utf16.Encode([]rune(s))
	from, to = max(0, min(from, len(u))), max(0, min(to, len(u)))
	if from > to {
		from = to
	}
	return string(utf16.Decode(u[from:to]))
}

// symbols people write for $filter's worded operators, longest first.
func symbolWords() [][2]string {
	return [][2]string{
		{">=", "ge"}, {"<=", "le"}, {"==", "eq"}, {"!=", "ne"}, {"<>", "ne"}, {"&&", "and"}, {"||", "or"},
		{">", "gt"}, {"<", "lt"}, {"=", "eq"}, {"!", "not"},
		{"AND", "and"}, {"OR", "or"}, {"NOT", "not"}, {"And", "and"}, {"Or", "or"}, {"Not", "not"},
		{"EQ", "eq"}, {"NE", "ne"}, {"GT", "gt"}, {"GE", "ge"}, {"LT", "lt"}, {"LE", "le"},
	}
}

// symbolHint names the worded operator for a symbol (or a capitalized
// keyword) at the offending position.
func symbolHint(loc *locale.Locale, text string, start int) string {
	rest := utf16Slice(text, start, len(utf16.Encode([]rune(text))))
	for _, sw := range symbolWords() {
		if !strings.HasPrefix(rest, sw[0]) {
			continue
		}
		if isWord(sw[0]) && len(rest) > len(sw[0]) && isWordByte(rest[len(sw[0])]) {
			continue
		}
		return loc.T(msgHint, "word", sw[1], "symbol", sw[0])
	}
	return ""
}

func isWord(s string) bool { return isWordByte(s[0]) }

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// andTerms lists the top-level "and" terms of a filter, left to right.
func andTerms(n filter.Node) []filter.Node {
	if a, ok := n.(*filter.And); ok {
		return append(andTerms(a.L), andTerms(a.R)...)
	}
	return []filter.Node{n}
}

// typeCounts is how many sampled entities hold each property as each type.
type typeCounts struct {
	sampled int
	byProp  map[string]map[edm.Type]int
}

// sampleSize bounds the entities read to find a table's property types.
const sampleSize = 1000

// sampleTypes reads up to sampleSize entities of table (none without a
// table or a store).
func (a *API) sampleTypes(table string) *typeCounts {
	if table == "" || a.Store == nil {
		return nil
	}
	page, err := a.Store.Query(table, store.Query{Top: sampleSize})
	if err != nil {
		return nil
	}
	tc := &typeCounts{sampled: len(page.Entities), byProp: map[string]map[edm.Type]int{}}
	for _, e := range page.Entities {
		for _, p := range e.Properties {
			m := tc.byProp[p.Name]
			if m == nil {
				m = map[edm.Type]int{}
				tc.byProp[p.Name] = m
			}
			m[p.Value.Type()]++
		}
	}
	return tc
}

// explainClause says what one top-level term does.
func explainClause(loc *locale.Locale, n filter.Node, pkFixed bool, types *typeCounts) Clause {
	c := Clause{Text: filter.String(n), Role: "entity", Says: loc.T(msgClauseEntity)}
	if cmp, ok := n.(*filter.Compare); ok && (cmp.Property == entity.PartitionKey || cmp.Property == entity.RowKey) {
		switch {
		case cmp.Value.Type() != edm.String:
			c.Role = "mismatch"
			c.Says = loc.T(msgClauseMismatch, "property", cmp.Property, "type", cmp.Value.Type().String(), "holds", holdsWord(cmp.MismatchHolds()))
		case cmp.Op == filter.Ne:
			c.Says = loc.T(msgClauseNe)
		case cmp.Property == entity.PartitionKey || pkFixed:
			c.Role = "range"
			b := boundsOf(loc, cmp.Property, boundFor(cmp, true), boundFor(cmp, false))
			c.Says = loc.T(msgClauseRange, "bounds", b.Statement)
		default:
			c.Says = loc.T(msgClauseRowKey)
		}
	}
	if _, ok := n.(*filter.Or); ok {
		c.Says = loc.T(msgClauseOr)
	}
	if types != nil {
		c.Mismatches = mismatches(loc, n, types)
	}
	return c
}

// boundFor is the lower (low) or upper end a single key comparison sets.
func boundFor(c *filter.Compare, low bool) filter.Bound {
	k := c.Value.Str()
	switch c.Op {
	case filter.Eq:
		return filter.Bound{Set: true, Key: k, Inclusive: true}
	case filter.Gt, filter.Ge:
		if low {
			return filter.Bound{Set: true, Key: k, Inclusive: c.Op == filter.Ge}
		}
	case filter.Lt, filter.Le:
		if !low {
			return filter.Bound{Set: true, Key: k, Inclusive: c.Op == filter.Le}
		}
	}
	return filter.Bound{}
}

// holdsWord is a clause's fixed answer, written as $filter writes it (code,
// so the same in every locale).
func holdsWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// mismatches finds the comparisons inside n that some sampled entities
// answer by type.
func mismatches(loc *locale.Locale, n filter.Node, types *typeCounts) []Mismatch {
	var out []Mismatch
	var walk func(filter.Node)
	walk = func(n filter.Node) {
		switch n := n.(type) {
		case *filter.And:
			walk(n.L)
			walk(n.R)
		case *filter.Or:
			walk(n.L)
			walk(n.R)
		case *filter.Not:
			walk(n.X)
		case *filter.Compare:
			for _, t := range edm.Types() {
				count := types.byProp[n.Property][t]
				if count == 0 || filter.Comparable(t, n.Value.Type()) {
					continue
				}
				m := Mismatch{Property: n.Property, Type: t.String(), Constant: n.Value.Type().String(), Count: count, Sampled: types.sampled, Holds: n.MismatchHolds()}
				m.Says = loc.T(msgMismatch, "count", count, "sampled", types.sampled, "property", n.Property, "type", m.Type,
					"constant", m.Constant, "clause", filter.String(n), "holds", holdsWord(m.Holds))
				out = append(out, m)
			}
		}
	}
	walk(n)
	return out
}

// FilterLiteral writes a value typed in the editor (an Edm type name and
// its text) as a $filter constant, e.g. Int64 12 → 12L; {"literal"} or
// {"error"} when the text is not a value of the type.
func (a *API) FilterLiteral(typeName, text string) []byte {
	t, ok := edmType(typeName)
	if !ok {
		return errorJSON("not an Edm type: " + typeName)
	}
	v, err := edm.ParseString(t, text)
	if err != nil {
		return errorJSON(err.Error())
	}
	return mustJSON(map[string]string{"literal": v.Literal()})
}

// FilterExample suggests a $filter made of one entity of a table (a draft):
// its PartitionKey and, where the draft has one, a numeric property (else
// its first) compared with its own value. The suggestion is parsed before it
// is offered, so a property the grammar cannot name is left out; without a
// draft the answer is a generic key-range filter.
func (a *API) FilterExample(draftJSON []byte) []byte {
	generic := mustJSON(map[string]string{"filter": "PartitionKey eq 'p1' and RowKey ge 'a'"})
	var d Draft
	if readJSON(draftJSON, &d) != nil || d.PartitionKey == nil {
		return generic
	}
	pk := "PartitionKey eq " + quoteKey(*d.PartitionKey)
	suggest := func(f string) []byte { return mustJSON(map[string]string{"filter": f}) }
	var pick *Row
	for i, r := range d.Properties {
		t, ok := edmType(r.Type)
		if ok && (t == edm.Int32 || t == edm.Int64 || t == edm.Double) {
			pick = &d.Properties[i]
			break
		}
	}
	if pick == nil && len(d.Properties) > 0 {
		pick = &d.Properties[0]
	}
	if pick != nil {
		if t, ok := edmType(pick.Type); ok {
			if v, err := edm.ParseString(t, pick.Text); err == nil {
				f := pk + " and " + pick.Name + " ge " + v.Literal()
				if _, err := filter.Parse(f); err == nil {
					return suggest(f)
				}
			}
		}
	}
	if _, err := filter.Parse(pk); err != nil {
		return generic
	}
	return suggest(pk)
}
