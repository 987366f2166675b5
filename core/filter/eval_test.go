package filter

import (
	"math"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

func mustParse(t *testing.T, s string) Node {
	t.Helper()
	n, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return n
}

// evalBoth evaluates a filter by walking its tree and through Compile, and
// fails the test when the two disagree.
func evalBoth(t *testing.T, n Node, e *entity.Entity) bool {
	t.Helper()
	got := n.Eval(e)
	if c := Compile(n)(e); c != got {
		t.Errorf("%s on %+v: Eval %v, Compile %v", String(n), e, got, c)
	}
	return got
}

func lit(t *testing.T, s string) edm.Value {
	t.Helper()
	v, err := edm.ParseLiteral(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEveryOperatorOnEveryType checks each operator on each type at a value
// below, equal to and above a constant.
func TestEveryOperatorOnEveryType(t *testing.T) {
	types := []struct {
		name            string
		below, at, over string // literals for the property value
		constant        string
	}{
		{"String", "'a'", "'b'", "'c'", "'b'"},
		{"Int32", "1", "2", "3", "2"},
		{"Int64", "1L", "2L", "3L", "2L"},
		{"Double", "1.5", "2.5", "3.5", "2.5"},
		{"Boolean", "false", "true", "true", "true"},
		{"DateTime", "datetime'2000-01-01T00:00:00Z'", "datetime'2000-01-01T00:00:00.0000001Z'", "datetime'2000-01-01T00:00:00.0000002Z'", "datetime'2000-01-01T00:00:00.0000001Z'"},
		{"Guid", "guid'00000000-0000-0000-0000-000000000001'", "guid'00000000-0000-0000-0000-000000000002'", "guid'10000000-0000-0000-0000-000000000000'", "guid'00000000-0000-0000-0000-000000000002'"},
		{"Binary", "X'00'", "X'0001'", "X'01'", "X'0001'"},
	}
	ops := []struct {
		op                  string
		below, equal, above bool
	}{
		{"eq", false, true, false},
		{"ne", true, false, true},
		{"gt", false, false, true},
		{"ge", false, true, true},
		{"lt", true, false, false},
		{"le", true, true, false},
	}
	for _, ty := range types {
		for _, o := range ops {
			n := mustParse(t, "P "+o.op+" "+ty.constant)
			cases := []struct {
				val  string
				want bool
			}{{ty.below, o.below}, {ty.at, o.equal}, {ty.over, o.above}}
			if ty.name == "Boolean" {
				cases = cases[:2] // true is the largest boolean
			}
			for _, c := range cases {
				e := &entity.Entity{Properties: []entity.Property{{Name: "P", Value: lit(t, c.val)}}}
				if got := evalBoth(t, n, e); got != c.want {
					t.Errorf("%s: P=%s %s %s = %v, want %v", ty.name, c.val, o.op, ty.constant, got, c.want)
				}
			}
			// A comparison on a missing property is false, ne included.
			if evalBoth(t, n, &entity.Entity{}) {
				t.Errorf("%s: missing P %s matched", ty.name, o.op)
			}
		}
	}
}

func TestTypedSemantics(t *testing.T) {
	e := &entity.Entity{PartitionKey: "pk", RowKey: "rk", Properties: []entity.Property{
		{Name: "Age32", Value: edm.Int32Value(30)},
		{Name: "Age64", Value: edm.Int64Value(30)},
		{Name: "Score", Value: edm.DoubleValue(30)},
		{Name: "Name", Value: edm.StringValue("10")},
		{Name: "Active", Value: edm.BoolValue(true)},
		{Name: "Off", Value: edm.BoolValue(false)},
		{Name: "Big", Value: edm.Int64Value(math.MaxInt64)},
		{Name: "When", Value: lit(t, "datetime'2020-01-01T00:00:00Z'")},
	}}
	e.Timestamp = lit(t, "datetime'2021-06-09T01:17:13.2924321Z'").Ticks()
	tests := []struct {
		filter string
		want   bool
	}{
		// widening allowed
		{"Age64 eq 30", true},
		{"Age64 gt 5", true},
		{"Score eq 30", true},
		{"Score eq 30L", true},
		{"Score gt 29L", true},
		// Int32 property against Int64 or Double constants: a mismatch, counted as less
		{"Age32 eq 30L", false},
		{"Age32 lt 30L", true},
		{"Age32 eq 30.0", false},
		{"Age32 ne 30.0", true},
		{"Age64 eq 30.0", false},
		// string property against a number: less than the constant
		{"Name gt 5", false},
		{"Name lt 5", true},
		{"Name le 5", true},
		{"Name ne 5", true},
		{"Name eq 5", false},
		// a typed property against '' (AZ#2342: taken as less than '')
		{"Score lt ''", true},
		{"When lt ''", true},
		{"When gt ''", false},
		// Int64 exact, not via float64
		{"Big eq 9223372036854775807L", true},
		{"Big eq 9223372036854775806L", false},
		{"Big gt 9223372036854775806L", true},
		// missing properties: false, also for ne; not of it is true
		{"Missing ne 1", false},
		{"Missing eq 1", false},
		{"not (Missing eq 1)", true},
		{"not (Missing ne 1)", true},
		// bare booleans
		{"Active", true},
		{"Off", false},
		{"not Off", true},
		{"Missing", false},
		{"not Missing", true},
		{"Name", false},
		// system properties
		{"PartitionKey eq 'pk' and RowKey eq 'rk'", true},
		{"PartitionKey gt 'pj' and PartitionKey lt 'pl' and RowKey ge 'rk' and RowKey le 'rk'", true},
		{"PartitionKey ne 'pk' or RowKey gt 'rk'", false},
		{"PartitionKey lt 5", true}, // a string key against a number: less than it
		{"RowKey eq 5", false},
		{"Timestamp lt datetime'1700-01-01T00:00:00Z'", false},
		{"Timestamp eq datetime'2021-06-09T01:17:13.2924321Z'", true},
		{"Timestamp gt datetime'2021-06-09T01:17:13.2924320Z'", true},
		{"Active and (Age32 lt 10 or Age64 ge 30)", true},
		{"Active and Age32 lt 10 or Off", false},
	}
	for _, tt := range tests {
		if got := evalBoth(t, mustParse(t, tt.filter), e); got != tt.want {
			t.Errorf("%s = %v, want %v", tt.filter, got, tt.want)
		}
	}
}

func TestStringOrderIsUTF16(t *testing.T) {
	e := &entity.Entity{Properties: []entity.Property{{Name: "S", Value: edm.StringValue("😀")}}}
	// U+1F600 is a surrogate pair (D83D …) and sorts below U+E000 in UTF-16.
	if !evalBoth(t, mustParse(t, "S lt '\uE000'"), e) {
		t.Error("'😀' should be less than U+E000")
	}
}

func TestKeyRange(t *testing.T) {
	tests := []struct {
		filter              string
		fixed, empty        bool
		pkLow, pkHigh       string
		rkLow, rkHigh       string
		rkLowInc, rkHighInc bool
	}{
		{filter: "PartitionKey eq 'p'", fixed: true, pkLow: "p", pkHigh: "p"},
		{filter: "PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'c'", fixed: true, pkLow: "p", pkHigh: "p", rkLow: "a", rkHigh: "c", rkLowInc: true},
		{filter: "RowKey gt 'a' and PartitionKey eq 'p' and RowKey le 'z'", fixed: true, pkLow: "p", pkHigh: "p", rkLow: "a", rkHigh: "z", rkHighInc: true},
		{filter: "PartitionKey ge 'a' and PartitionKey lt 'b'", pkLow: "a", pkHigh: "b"},
		{filter: "PartitionKey eq 'a' and PartitionKey eq 'b'", empty: true, pkLow: "b", pkHigh: "a"},
		{filter: "PartitionKey gt 'a' and PartitionKey lt 'a'", empty: true, pkLow: "a", pkHigh: "a"},
		{filter: "PartitionKey eq 'p' and RowKey gt 'z' and RowKey lt 'a'", fixed: true, empty: true, pkLow: "p", pkHigh: "p", rkLow: "z", rkHigh: "a"},
		{filter: "PartitionKey eq 'p' or PartitionKey eq 'q'"},
		{filter: "PartitionKey eq 5"},
		{filter: "RowKey eq 'r'"},
		{filter: "Age gt 5 and PartitionKey le 'm'", pkHigh: "m"},
	}
	for _, tt := range tests {
		r := KeyRange(mustParse(t, tt.filter))
		if r.PartitionFixed() != tt.fixed || r.Empty != tt.empty || r.PKLow.Key != tt.pkLow || r.PKHigh.Key != tt.pkHigh ||
			r.RKLow.Key != tt.rkLow || r.RKHigh.Key != tt.rkHigh {
			t.Errorf("%s: %+v", tt.filter, r)
		}
		if tt.rkLow != "" && (r.RKLow.Inclusive != tt.rkLowInc || r.RKHigh.Inclusive != tt.rkHighInc) {
			t.Errorf("%s: inclusivity %+v", tt.filter, r)
		}
	}
	if r := KeyRange(nil); r.PKLow.Set || r.PKHigh.Set || r.Empty {
		t.Errorf("nil filter: %+v", r)
	}
	b := Bound{Set: true, Key: "m", Inclusive: false}
	if b.AboveLow("m") || !b.AboveLow("n") || b.BelowHigh("m") || !b.BelowHigh("l") || !(Bound{}).AboveLow("") {
		t.Error("bound checks")
	}
}
