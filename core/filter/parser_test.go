package filter

import (
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

func TestParseCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"PartitionKey eq 'a'", "PartitionKey eq 'a'"},
		{"  PartitionKey   eq   'a'  ", "PartitionKey eq 'a'"},
		{"'a' eq PartitionKey", "PartitionKey eq 'a'"},
		{"5 lt Age", "Age gt 5"},
		{"5 ge Age", "Age le 5"},
		{"Name eq 'O''Brien'", "Name eq 'O''Brien'"},
		{"a eq 1 and b eq 2 or c eq 3", "a eq 1 and b eq 2 or c eq 3"},
		{"a eq 1 and (b eq 2 or c eq 3)", "a eq 1 and (b eq 2 or c eq 3)"},
		{"(a eq 1)or(b eq 2)", "a eq 1 or b eq 2"},
		{"((a eq 1))", "a eq 1"},
		{"not a eq 1", "not (a eq 1)"},
		{"not (a eq 1 or b eq 2)", "not (a eq 1 or b eq 2)"},
		{"not IsActive", "not IsActive"},
		{"IsActive", "IsActive"},
		{"IsActive and Age gt 20", "IsActive and Age gt 20"},
		{"not not a", "not (not a)"},
		{"Big eq 123L", "Big eq 123L"},
		{"Big eq 3000000000", "Big eq 3000000000L"},
		{"D eq 2.0", "D eq 2.0"},
		{"D eq 1.5d", "D eq 1.5"},
		{"D lt -1E+15", "D lt -1E+15"},
		{"B eq true", "B eq true"},
		{"T eq datetime'2008-07-10T00:00:00.1000000Z'", "T eq datetime'2008-07-10T00:00:00.1Z'"},
		{"G eq guid'C9DA6455-213D-42C9-9A79-3E9149A57833'", "G eq guid'c9da6455-213d-42c9-9a79-3e9149a57833'"},
		{"X eq X'abcd'", "X eq X'ABCD'"},
		{"X eq binary'ABCD'", "X eq X'ABCD'"},
		{"Prénom eq 'x'", "Prénom eq 'x'"},
		{"_x eq 1", "_x eq 1"},
		{"a eq 1 and b eq 2 and c eq 3 and d eq 4 and e eq 5 and f eq 6 and g eq 7 and h eq 8 and i eq 9 and j eq 10 and k eq 11 and l eq 12 and m eq 13 and n eq 14 and o eq 15",
			"a eq 1 and b eq 2 and c eq 3 and d eq 4 and e eq 5 and f eq 6 and g eq 7 and h eq 8 and i eq 9 and j eq 10 and k eq 11 and l eq 12 and m eq 13 and n eq 14 and o eq 15"},
	}
	for _, tt := range tests {
		n, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := String(n); got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		code tableerr.Code
		msg  string
	}{
		{"aaa bbb ccc", tableerr.InvalidInput, "Syntax error at position 7 in 'aaa bbb ccc'."}, // live
		{"PartitionKey eq", tableerr.InvalidInput, "Syntax error at position 15 in 'PartitionKey eq'."},
		{"PartitionKey eq 'a' and", tableerr.InvalidInput, "Syntax error at position 23 in 'PartitionKey eq 'a' and'."},
		{"(a eq 1", tableerr.InvalidInput, "Syntax error at position 7 in '(a eq 1'."},
		{"a eq 1)", tableerr.InvalidInput, "Syntax error at position 7 in 'a eq 1)'."},
		{"a EQ 1", tableerr.InvalidInput, "Syntax error at position 4 in 'a EQ 1'."},
		{`a eq "x"`, tableerr.InvalidInput, `Syntax error at position 6 in 'a eq "x"'.`},
		{"a eq 'open", tableerr.InvalidInput, "Syntax error at position 10 in 'a eq 'open'."},
		{"a eq 12abc", tableerr.InvalidInput, "Syntax error at position 8 in 'a eq 12abc'."},
		{"a eq guid'nope'", tableerr.InvalidInput, "Syntax error at position 15 in 'a eq guid'nope''."},
		{"é eq 'x' and", tableerr.InvalidInput, "Syntax error at position 12 in 'é eq 'x' and'."},
		{"", tableerr.InvalidInput, "Syntax error at position 0 in ''."},
		{"a eq 1 or", tableerr.InvalidInput, ""},
		{"a eq 1 and and", tableerr.InvalidInput, ""},
		{"a eq $", tableerr.InvalidInput, ""},
		{"startswith(a,'x')", tableerr.InvalidInput, ""},
		{"a eq null", tableerr.InvalidInput, "One of the request inputs is not valid."},
		{"null ne a", tableerr.InvalidInput, "One of the request inputs is not valid."},
		{"1 eq 1", tableerr.NotImplemented, "The requested operation is not implemented on the specified resource."},
		{"a eq b", tableerr.NotImplemented, ""},
		{"true", tableerr.NotImplemented, ""},
		{"a eq 1 and b eq 2 and c eq 3 and d eq 4 and e eq 5 and f eq 6 and g eq 7 and h eq 8 and i eq 9 and j eq 10 and k eq 11 and l eq 12 and m eq 13 and n eq 14 and o eq 15 and p eq 16", tableerr.InvalidInput, "One of the request inputs is not valid."},
		{deep(40), tableerr.InvalidInput, "One of the request inputs is not valid."},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || err.Code != tt.code {
			t.Errorf("Parse(%q) = %v, want %s", tt.in, err, tt.code)
			continue
		}
		if tt.msg != "" && err.Message != tt.msg {
			t.Errorf("Parse(%q) message %q, want %q", tt.in, err.Message, tt.msg)
		}
	}
	if _, err := Parse("a eq 1"); err != nil {
		t.Error(err)
	}
	if err := mustErr(Parse("1 eq 1")); err.Status != 501 {
		t.Errorf("status %d", err.Status)
	}
}

func mustErr(_ Node, err *tableerr.Error) *tableerr.Error { return err }

func deep(n int) string {
	s := "a eq 1"
	for i := 0; i < n; i++ {
		s = "(" + s + ")"
	}
	return s
}

func TestDepthLimitIsNotHitByOrdinaryNesting(t *testing.T) {
	if _, err := Parse(deep(MaxDepth)); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	if _, err := Parse(deep(MaxDepth + 1)); err == nil {
		t.Errorf("depth %d accepted", MaxDepth+1)
	}
}

func TestProperties(t *testing.T) {
	n, _ := Parse("a eq 1 or (not b and a lt 3) or c")
	got := Properties(n)
	if len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("Properties = %v", got)
	}
}

func TestTopAndSelect(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "1": 1, "1000": 1000, " 5 ": 5} {
		if n, err := ParseTop(s); err != nil || n != want {
			t.Errorf("ParseTop(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"1001", "-1", "x", "", "1.5"} {
		if _, err := ParseTop(s); err == nil || err.Code != tableerr.InvalidInput {
			t.Errorf("ParseTop(%q) = %v", s, err)
		}
	}
	names, err := ParseSelect("age, sex ,xyz")
	if err != nil || len(names) != 3 || names[1] != "sex" {
		t.Errorf("ParseSelect = %v, %v", names, err)
	}
	for _, s := range []string{"", " ", "*"} {
		if names, err := ParseSelect(s); err != nil || names != nil {
			t.Errorf("ParseSelect(%q) = %v, %v", s, names, err)
		}
	}
	for _, s := range []string{"a,,b", "a-b", "1a"} {
		if _, err := ParseSelect(s); err == nil {
			t.Errorf("ParseSelect(%q) accepted", s)
		}
	}
}

// FuzzParse: parsing never panics; a parsed filter prints to a canonical form
// that parses again to the same canonical form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"aaa bbb ccc", "PartitionKey eq 'a' and RowKey ge 'b'", "(a eq 1)or(b eq 2)", "not IsActive",
		"Age64 gt 5", "T ge datetime'2008-07-10T00:00:00Z'", "G eq guid'c9da6455-213d-42c9-9a79-3e9149a57833'", "X eq X'ABCD'",
		"'a' eq PartitionKey", "a eq null", "1 eq 1", "Name eq 'O''Brien'", "D eq -1.5E-7", "((((a))))", "a eq 'é😀'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			if err.Message == "" || err.Status < 400 {
				t.Fatalf("bad error %+v", err)
			}
			return
		}
		c := String(n)
		m, err := Parse(c)
		if err != nil {
			t.Fatalf("%q → canonical %q does not parse: %v", s, c, err)
		}
		if String(m) != c {
			t.Fatalf("canonical form not stable: %q → %q → %q", s, c, String(m))
		}
	})
}
