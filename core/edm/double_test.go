package edm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// TestRoundTripDigitsShortcut checks the shortest-digits shortcut against
// the definition (15 digits if they read back, else 17) on doubles spread
// over every exponent, subnormals and near-ties included.
func TestRoundTripDigitsShortcut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(f float64) {
		t.Helper()
		var b1, b2 [32]byte
		got, gp := roundTripDigits(b1[:0], f)
		want, wp := roundTripDigitsByParsing(b2[:0], f)
		if gp != wp || decimal(got) != decimal(want) {
			t.Fatalf("%v (%#x): shortcut %s (%d), definition %s (%d)", f, math.Float64bits(f), got, gp, want, wp)
		}
	}
	for _, f := range []float64{1, 5, 0.1, 0.3, 1234.5, 1e15, 1e16, 123456789012345, 1234567890123456, 0x1p-1022, 0x1p-1023, 5e-324, math.MaxFloat64, 9.999999999999999e22} {
		check(f)
		check(-f)
	}
	for i := 0; i < 200000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
			continue
		}
		check(f)
		// Short decimals, the usual values, too.
		check(float64(r.IntN(1_000_000)) / float64(int(1)<<r.IntN(20)))
	}
}

// decimal is an 'e'-form number's significant digits without trailing zeros
// and its exponent, so that "1.500e+02" and "1.5e+02" compare equal.
func decimal(e []byte) string {
	s := string(e)
	mant, exp, _ := strings.Cut(s, "e")
	mant = strings.Replace(mant, ".", "", 1)
	mant = strings.TrimRight(mant, "0")
	return mant + "e" + exp
}

func BenchmarkAppendDouble(b *testing.B) {
	buf := make([]byte, 0, 32)
	for b.Loop() {
		buf = AppendDouble(buf[:0], 1234.5)
		buf = AppendDouble(buf[:0], 0.30000000000000004)
	}
}
