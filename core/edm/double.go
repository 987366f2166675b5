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
	prec := 15
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', prec-1, 64)
	if g, err := strconv.ParseFloat(string(e), 64); err != nil || g != f {
		prec = 17
		e = strconv.AppendFloat(buf[:0], f, 'e', prec-1, 64)
	}
	// e is [-]d.ddddde±XX
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
	digits = append(digits, e[2:ePos]...)
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
