package edm

import (
	"math"
	"strconv"
)

// AppendDouble appends f in the text the service writes for a finite
// Edm.Double (house decision F-DOUBLE-TEXT): the .NET Framework "R" format — 15
// significant digits if they round-trip, else 17 — laid out like .NET's G
// format (exponent form E+NN/E-NN when the decimal exponent is at least the
// precision or below -4, trailing zeros dropped), with ".0" appended when the
// result has neither a point nor an exponent. NaN and the infinities are not
// numbers on the wire; callers write them as the strings "NaN", "Infinity"
// and "-Infinity" (see DoubleSpecial).
func AppendDouble(b []byte, f float64) []byte {
	if f == 0 {
		// .NET Framework prints negative zero as "0" too.
		return append(b, "0.0"...)
	}
	var buf [32]byte
	e, prec := roundTripDigits(buf[:0], f)
	// e is [-]d.ddddde±XX, or [-]de±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	ePos := len(e) - 1
	for e[ePos] != 'e' {
		ePos--
	}
	exp, _ := strconv.Atoi(string(e[ePos+1:]))
	digits := make([]byte, 0, 17)
	digits = append(digits, e[0])
	if ePos > 1 { // a single shortest digit has no point: "5e+00"
		digits = append(digits, e[2:ePos]...)
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if neg {
		b = append(b, '-')
	}
	if exp >= prec || exp < -4 {
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'E')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	if exp < 0 {
		b = append(b, '0', '.')
		for i := -1; i > exp; i-- {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	// exp >= 0: the first exp+1 digits form the integer part.
	if len(digits) <= exp+1 {
		b = append(b, digits...)
		for i := len(digits); i <= exp; i++ {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	}
	b = append(b, digits[:exp+1]...)
	b = append(b, '.')
	return append(b, digits[exp+1:]...)
}

// FormatDouble returns AppendDouble's text, or the special string for NaN and
// the infinities.
func FormatDouble(f float64) string {
	if s, ok := DoubleSpecial(f); ok {
		return s
	}
	return string(AppendDouble(nil, f))
}

// DoubleSpecial returns the wire string of NaN, +Inf and -Inf
// ("NaN", "Infinity", "-Infinity") and whether f is one of them.
func DoubleSpecial(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}

// parseDoubleText reads a decimal number (optional sign, digits, point,
// exponent) or one of the special names. Numbers that overflow to ±Inf are
// malformed, as on the service.
func parseDoubleText(s string) (float64, error) {
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "Infinity", "INF":
		return math.Inf(1), nil
	case "-Infinity", "-INF":
		return math.Inf(-1), nil
	}
	if !isDecimal(s) {
		return 0, malformed(Double, s, "not a number")
	}
	return parseDecimal(s)
}

// parseDecimal is parseDoubleText for s that isDecimal accepts.
func parseDecimal(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, malformed(Double, s, "outside the range of a 64-bit double")
	}
	return f, nil
}

// isDecimal reports whether s is [-+]?digits[.digits][(e|E)[-+]?digits] with
// at least one digit before or after the point. It rejects what
// strconv.ParseFloat accepts beyond that (hex floats, underscores, "inf").
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := i - start
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracDigits = i - f
	}
	if intDigits+fracDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		e := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == e {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// minNormal is the smallest positive normal double.
const minNormal = 0x1p-1022

// roundTripDigits appends f in strconv's 'e' form with the digits of the "R"
// format and returns them with their precision: 15 when 15 significant
// digits read back as f, else 17. For a normal double the shortest digits
// that read back (strconv's -1 precision) answer without a second parse: when
// they are at most 15, f rounded to 15 digits is those digits (f is within
// half a unit in the last place of them, 2⁻⁵³ of f, closer than half a unit
// of the 15th digit, at least 5×10⁻¹⁶ of f), so 15 digits read back; when
// they are more, no 15 digits read back. A subnormal double has fewer bits,
// so it takes the direct test.
func roundTripDigits(buf []byte, f float64) ([]byte, int) {
	if math.Abs(f) >= minNormal {
		e := strconv.AppendFloat(buf, f, 'e', -1, 64)
		if mantissaDigits(e) <= 15 {
			return e, 15
		}
		return strconv.AppendFloat(buf[:0], f, 'e', 16, 64), 17
	}
	return roundTripDigitsByParsing(buf, f)
}

// roundTripDigitsByParsing is roundTripDigits by the definition: 15 digits,
// read back and compared, else 17.
func roundTripDigitsByParsing(buf []byte, f float64) ([]byte, int) {
	e := strconv.AppendFloat(buf, f, 'e', 14, 64)
	if g, err := strconv.ParseFloat(string(e), 64); err != nil || g != f {
		return strconv.AppendFloat(buf[:0], f, 'e', 16, 64), 17
	}
	return e, 15
}

// mantissaDigits counts the digits before the exponent of strconv's 'e' form.
func mantissaDigits(e []byte) int {
	n := 0
	for _, c := range e {
		switch {
		case c == 'e':
			return n
		case c >= '0' && c <= '9':
			n++
		}
	}
	return n
}
