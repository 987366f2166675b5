package edm

import (
	"math"
	"testing"
)

func TestScanLiteral(t *testing.T) {
	tests := []struct {
		in        string
		want      Value
		n         int
		canonical string
	}{
		{"'O''Brien' rest", StringValue("O'Brien"), 10, "'O''Brien'"},
		{"''", StringValue(""), 2, "''"},
		{"''''", StringValue("'"), 4, "''''"},
		{"123", Int32Value(123), 3, "123"},
		{"-123)", Int32Value(-123), 4, "-123"},
		{"123L", Int64Value(123), 4, "123L"},
		{"3000000000", Int64Value(3000000000), 10, "3000000000L"},
		{"1.5", DoubleValue(1.5), 3, "1.5"},
		{"2.0", DoubleValue(2), 3, "2.0"},
		{"1.5d", DoubleValue(1.5), 4, "1.5"},
		{"1E+15", DoubleValue(1e15), 5, "1E+15"},
		{"true", BoolValue(true), 4, "true"},
		{"false)", BoolValue(false), 5, "false"},
		{"datetime'2008-07-10T00:00:00Z'", mustDate(t, "2008-07-10T00:00:00Z"), 30, "datetime'2008-07-10T00:00:00Z'"},
		{"guid'C9DA6455-213D-42C9-9A79-3E9149A57833'", mustGuid(t, "c9da6455-213d-42c9-9a79-3e9149a57833"), 42, "guid'c9da6455-213d-42c9-9a79-3e9149a57833'"},
		{"X'ABCD'", BinaryValue([]byte{0xab, 0xcd}), 7, "X'ABCD'"},
		{"binary'abcd'", BinaryValue([]byte{0xab, 0xcd}), 12, "X'ABCD'"},
	}
	for _, tt := range tests {
		got, n, err := ScanLiteral(tt.in)
		if err != nil {
			t.Errorf("ScanLiteral(%q): %v", tt.in, err)
			continue
		}
		if !got.Equal(tt.want) || n != tt.n {
			t.Errorf("ScanLiteral(%q) = %v, %d; want %v, %d", tt.in, got, n, tt.want, tt.n)
		}
		if c := got.Literal(); c != tt.canonical {
			t.Errorf("%v.Literal() = %q, want %q", got, c, tt.canonical)
		}
	}
}

func TestScanLiteralErrors(t *testing.T) {
	for _, in := range []string{"'open", "datetime'2008-07-10'", "guid'123'", "X'ABC'", "X'GG'", "1.5m", "9223372036854775808L",
		"99999999999999999999", "abc", "\"x\"", "-", "1.5L", "datetime'1500-01-01T00:00:00Z'"} {
		if v, n, err := ScanLiteral(in); err == nil {
			t.Errorf("ScanLiteral(%q) = %v, %d; want an error", in, v, n)
		}
	}
	if _, err := ParseLiteral("1 2"); err == nil {
		t.Error("ParseLiteral accepted trailing text")
	}
}

func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{"'O''Brien'", "123", "123L", "1.5", "2.0", "1E+15", "true", "datetime'2008-07-10T00:00:00.1234567Z'",
		"guid'c9da6455-213d-42c9-9a79-3e9149a57833'", "X'ABCD'", "binary'00'", "-0", "1e-5", "'", "''''", "9223372036854775807L"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseLiteral(s)
		if err != nil {
			return
		}
		lit := v.Literal()
		w, err := ParseLiteral(lit)
		if err != nil {
			t.Fatalf("%q parsed to %v whose literal %q does not parse: %v", s, v, lit, err)
		}
		if !w.Equal(v) && !(v.Type() == Double && math.IsNaN(v.Float())) && !(v.Type() == Double && v.Float() == 0 && w.Float() == 0) {
			t.Fatalf("%q → %v → %q → %v", s, v, lit, w)
		}
		if w.Literal() != lit {
			t.Fatalf("literal not stable: %q then %q", lit, w.Literal())
		}
	})
}
