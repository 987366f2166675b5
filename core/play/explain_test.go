package play

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

func TestExplainKeyBoundsExactly(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for _, c := range []struct{ filter, pk, statement string }{
		{"PartitionKey ge 'cust05' and PartitionKey lt 'cust08'", "PartitionKey ≥ 'cust05' and < 'cust08'",
			"Scans PartitionKey ≥ 'cust05' and < 'cust08'; only entities in that range are examined."},
		{"PartitionKey gt 'a' and PartitionKey le 'b'", "PartitionKey > 'a' and ≤ 'b'", ""},
		{"PartitionKey eq 'p' and RowKey lt 'm'", "PartitionKey = 'p'", "Scans PartitionKey = 'p', RowKey < 'm'; only entities in that range are examined."},
		{"PartitionKey eq 'p'", "PartitionKey = 'p'", "Scans one partition, PartitionKey = 'p'; only its entities are examined."},
		{"PartitionKey eq 'o''k'", "PartitionKey = 'o''k'", ""},
		{"Age gt 3", "", "Scans the whole table: no clause narrows PartitionKey, so every entity is examined."},
		{"PartitionKey gt 'b' and PartitionKey lt 'a'", "PartitionKey > 'b' and < 'a'", "No key satisfies these bounds: the query examines nothing and returns nothing."},
	} {
		e := decode[Explanation](t, a.ExplainFilter(c.filter, ""))
		got := ""
		if e.KeyRange.PartitionKey != nil {
			got = e.KeyRange.PartitionKey.Statement
		}
		if got != c.pk || c.statement != "" && e.KeyRange.Statement != c.statement {
			t.Errorf("%s: bounds %q, statement %q", c.filter, got, e.KeyRange.Statement)
		}
	}
}

func TestExplainClauses(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	e := decode[Explanation](t, a.ExplainFilter("PartitionKey ge 'c' and PartitionKey lt 'f' and (Age gt 3 or Name eq 'x') and RowKey eq 'r' and PartitionKey ne 'd' and PartitionKey eq 5", ""))
	want := []struct{ text, role, says string }{
		{"PartitionKey ge 'c'", "range", "PartitionKey ≥ 'c'"},
		{"PartitionKey lt 'f'", "range", "PartitionKey < 'f'"},
		{"Age gt 3 or Name eq 'x'", "entity", "joined by or"},
		{"RowKey eq 'r'", "entity", "only when PartitionKey is fixed"},
		{"PartitionKey ne 'd'", "entity", "ne does not narrow"},
		{"PartitionKey eq 5", "mismatch", "false for every entity"},
	}
	if len(e.Clauses) != len(want) {
		t.Fatalf("%d clauses: %+v", len(e.Clauses), e.Clauses)
	}
	for i, w := range want {
		c := e.Clauses[i]
		if c.Text != w.text || c.Role != w.role || !strings.Contains(c.Says, w.says) {
			t.Errorf("clause %d: %+v, want %+v", i, c, w)
		}
	}
	// RowKey narrows once the partition is fixed.
	e = decode[Explanation](t, a.ExplainFilter("PartitionKey eq 'p' and RowKey gt 'm'", ""))
	if e.Clauses[1].Role != "range" || !strings.Contains(e.Clauses[1].Says, "RowKey > 'm'") {
		t.Errorf("%+v", e.Clauses)
	}
	// A mismatch on a key with lt holds for every entity.
	e = decode[Explanation](t, a.ExplainFilter("RowKey lt 5", ""))
	if e.Clauses[0].Role != "mismatch" || !strings.Contains(e.Clauses[0].Says, "true for every entity") {
		t.Errorf("%+v", e.Clauses)
	}
}

func TestExplainTypeMismatchInTable(t *testing.T) {
	st := store.New(store.Options{Clock: func() time.Time { return at }})
	a := newAPI("http://h/devstoreaccount1")
	a.Store = st
	st.CreateTable("events")
	for i, v := range []edm.Value{edm.StringValue("2024-01-01T00:00:00Z"), edm.StringValue("2024-02-01T00:00:00Z"), mustDate(t, "2024-03-01T00:00:00Z")} {
		e := &entity.Entity{PartitionKey: "p", RowKey: string(rune('a' + i)), Properties: []entity.Property{{Name: "When", Value: v}}}
		if _, err := st.Apply("events", store.Op{Kind: store.Insert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	e := decode[Explanation](t, a.ExplainFilter("When gt datetime'2023-01-01T00:00:00Z'", "events"))
	if len(e.Clauses) != 1 || len(e.Clauses[0].Mismatches) != 1 {
		t.Fatalf("%+v", e.Clauses)
	}
	m := e.Clauses[0].Mismatches[0]
	if m.Property != "When" || m.Type != "Edm.String" || m.Constant != "Edm.DateTime" || m.Count != 2 || m.Sampled != 3 || m.Holds ||
		!strings.Contains(m.Says, "2 of 3 entities read hold When as Edm.String") || !strings.Contains(m.Says, "is false whatever the value") {
		t.Errorf("%+v", m)
	}
	// The explanation agrees with what a query returns: only the DateTime one.
	q := "When gt datetime'2023-01-01T00:00:00Z'"
	s := decode[map[string]any](t, a.QueryStats(mustJSON(Operation{Table: "events", Filter: &q})))
	if s["returned"] != float64(1) {
		t.Errorf("query returned %v", s)
	}
	// An Int64 property against an Int32 constant widens: no mismatch.
	e = decode[Explanation](t, a.ExplainFilter("When lt 5", "events"))
	if len(e.Clauses[0].Mismatches) != 2 || !e.Clauses[0].Mismatches[0].Holds {
		t.Errorf("%+v", e.Clauses[0].Mismatches)
	}
	// No table or an unknown one: no mismatches, no error.
	for _, table := range []string{"", "nosuch"} {
		if e := decode[Explanation](t, a.ExplainFilter(q, table)); !e.Valid || len(e.Clauses[0].Mismatches) != 0 {
			t.Errorf("%q: %+v", table, e)
		}
	}
}

func mustDate(t *testing.T, s string) edm.Value {
	t.Helper()
	v, err := edm.ParseString(edm.DateTime, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestExplainErrorWhereAndHint(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for _, c := range []struct {
		filter      string
		pos, column int
		hint        string
	}{
		{"Age > 30", 5, 5, "use gt instead of >"},
		{"Age >= 30", 5, 5, "use ge instead of >="},
		{"Age < 30", 5, 5, "use lt instead of <"},
		{"Age <= 30", 5, 5, "use le instead of <="},
		{"Age == 30", 5, 5, "use eq instead of =="},
		{"Age != 30", 5, 5, "use ne instead of !="},
		{"Age gt 1 && Age lt 9", 10, 10, "use and instead of &&"},
		{"Age gt 1 || Age lt 9", 10, 10, "use or instead of ||"},
		{"Age gt 1 AND Age lt 9", 12, 10, "use and instead of AND"},
		{"aaa bbb ccc", 7, 5, ""},
	} {
		e := decode[Explanation](t, a.ExplainFilter(c.filter, ""))
		if e.Valid || e.Position != c.pos || e.Column != c.column || (c.hint == "") != (e.Hint == "") || !strings.Contains(e.Hint, c.hint) {
			t.Errorf("%s: position %d column %d hint %q (%s)", c.filter, e.Position, e.Column, e.Hint, e.Error.Message)
		}
		if !strings.Contains(e.Where, "counts positions from 0") || !strings.Contains(e.Where, "at character "+strconv.Itoa(c.column)) {
			t.Errorf("%s: where %q", c.filter, e.Where)
		}
	}
	// Positions are in UTF-16 units, as the service counts.
	e := decode[Explanation](t, a.ExplainFilter("Näme > 'é'", ""))
	if e.Column != 6 || e.Span.End != 6 || !strings.Contains(e.Where, "'>'") {
		t.Errorf("%+v", e)
	}
}

func TestFilterLiteral(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for _, c := range []struct{ typ, text, want string }{
		{"Edm.Int64", "12", "12L"}, {"Int32", "7", "7"}, {"", "o'k", "'o''k'"},
		{"Edm.DateTime", "2024-01-02T03:04:05Z", "datetime'2024-01-02T03:04:05Z'"},
	} {
		if got := decode[map[string]string](t, a.FilterLiteral(c.typ, c.text)); got["literal"] != c.want {
			t.Errorf("%s %s: %v", c.typ, c.text, got)
		}
	}
	for _, bad := range [][2]string{{"Edm.Int32", "x"}, {"Edm.Nope", "1"}} {
		if got := decode[map[string]string](t, a.FilterLiteral(bad[0], bad[1])); got["error"] == "" {
			t.Errorf("%v: no error", bad)
		}
	}
}
