package edm

import (
	"errors"
	"strings"
	"testing"
)

// Every reason has one id and one text, and every ParseError edm writes
// carries the id of its reason, so that a rule card can say it in the
// reader's language.
func TestReasonsHaveIDs(t *testing.T) {
	ids, texts := map[string]bool{}, map[string]bool{}
	for _, r := range Reasons() {
		if r.ID == "" || ids[r.ID] || texts[r.Text] {
			t.Errorf("reason %q %q: empty or listed twice", r.ID, r.Text)
		}
		ids[r.ID], texts[r.Text] = true, true
	}
	var errs []error
	for _, c := range []struct {
		t Type
		s string
	}{
		{Int32, "3.5"}, {Int32, "3000000000"}, {Int64, "x"}, {Int64, "99999999999999999999"}, {Double, "x"}, {Double, "1e999"},
		{Boolean, "yes"}, {Guid, "x"}, {Binary, "!"}, {DateTime, "x"}, {DateTime, "2020-13-01T00:00:00Z"},
		{DateTime, "2021-02-30T00:00:00Z"}, {DateTime, "2020-01-01T00:00:00.12345678Z"}, {DateTime, "2020-01-01T00:00:00+15:00"},
		{DateTime, "2020-01-01T00:00:00Q"}, {DateTime, "1500-01-01T00:00:00Z"}, {Type(99), "x"},
	} {
		_, err := ParseString(c.t, c.s)
		errs = append(errs, err)
	}
	for _, s := range []string{"'abc", "X'ab", "X'abc'", "guid'x", "@", "1.5L", "1.5M", "'a'x"} {
		_, err := ParseLiteral(s)
		errs = append(errs, err)
	}
	for _, c := range []struct {
		k        JSONKind
		text, tn string
	}{{JSONNumber, "x", ""}, {JSONString, "x", "Edm.Foo"}, {JSONNumber, "3", "Edm.Guid"}, {JSONBool, "true", "Edm.Int32"}, {JSONString, "3", "Edm.Double"}} {
		_, err := FromJSON(c.k, c.text, c.tn)
		errs = append(errs, err)
	}
	for _, err := range errs {
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) {
			continue
		}
		if !ids[pe.ID] {
			t.Errorf("%v: reason id %q is not listed", err, pe.ID)
			continue
		}
		for _, r := range Reasons() {
			if r.ID == pe.ID && strings.ReplaceAll(r.Text, "{type}", pe.Type.String()) != pe.Reason {
				t.Errorf("%v: reason %q lists %q", err, pe.ID, r.Text)
			}
		}
	}
}
