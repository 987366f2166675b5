package edm

import (
	"math"
	"strconv"
	"testing"
)

func TestFormatDouble(t *testing.T) {
	a, b := 0.1, 0.2
	point3 := a + b // computed at run time: 0.30000000000000004
	tests := []struct {
		in   float64
		want string
	}{
		{20, "20.0"},
		{3, "3.0"},
		{3.1, "3.1"},
		{1234.1234, "1234.1234"},
		{9223372036854775808000, "9.2233720368547758E+21"}, // live recording
		{1.23456789012346e24, "1.23456789012346E+24"},      // live recording
		{1e-5, "1E-05"},
		{1e-4, "0.0001"},
		{1e15, "1E+15"},
		{1e14, "100000000000000.0"},
		{123456789012345, "123456789012345.0"},
		{0.1, "0.1"},
		{point3, "0.30000000000000004"},
		{-2.5, "-2.5"},
		{0, "0.0"},
		{math.Copysign(0, -1), "0.0"},
		{math.MaxFloat64, "1.7976931348623157E+308"},
		{5e-324, "4.94065645841247E-324"}, // G15 reads back as the same denormal
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, tt := range tests {
		if got := FormatDouble(tt.in); got != tt.want {
			t.Errorf("FormatDouble(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatDoubleRoundTrips(t *testing.T) {
	for _, f := range []float64{1.0 / 3, math.Pi, 1e300, 2.5e-300, 123.456, 1 << 53, 9007199254740993} {
		s := FormatDouble(f)
		g, err := strconv.ParseFloat(s, 64)
		if err != nil || g != f {
			t.Errorf("FormatDouble(%v) = %q reads back as %v, %v", f, s, g, err)
		}
	}
}
