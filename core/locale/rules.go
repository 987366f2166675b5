package locale

import (
	"math"
	"strconv"
	"strings"
)

// Plural is n's CLDR cardinal plural category in the locale: "one", "few",
// "many" or "other". The rules are CLDR's for the four locales, written out
// (i is the integer part, v the count of visible fraction digits, here 0
// for a whole number and 1 or more otherwise):
//
//	en: one  i = 1 and v = 0
//	fr: one  i = 0,1; many  e = 0 and i != 0 and i % 1000000 = 0 and v = 0
//	pl: one  i = 1 and v = 0; few  v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
//	    many v = 0 and (i != 1 and i % 10 = 0..1 or i % 10 = 5..9 or i % 100 = 12..14)
//	ja: other only
func (l *Locale) Plural(n float64) string {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return "other"
	}
	a := math.Abs(n)
	whole := a == math.Trunc(a)
	i := uint64(0)
	if a < 1e18 {
		i = uint64(a)
	}
	switch l.Lang() {
	case "en", Pseudo:
		if whole && i == 1 {
			return "one"
		}
	case "fr":
		if i <= 1 {
			return "one"
		}
		if whole && i != 0 && i%1000000 == 0 {
			return "many"
		}
	case "pl":
		if !whole {
			return "other"
		}
		d, h := i%10, i%100
		switch {
		case i == 1:
			return "one"
		case d >= 2 && d <= 4 && (h < 12 || h > 14):
			return "few"
		default:
			return "many"
		}
	}
	return "other"
}

// separators are the locale's decimal sign, grouping sign and the fewest
// digits a number needs before it is grouped (CLDR's minimumGroupingDigits
// plus three: Polish writes 2000 but 12 345).
func (l *Locale) separators() (decimal, group string, minDigits int) {
	switch l.Lang() {
	case "pl":
		return ",", "\u00a0", 5
	case "fr":
		return ",", "\u202f", 4
	}
	return ".", ",", 4
}

// Int writes n for the locale: en and ja 12,345; fr 12 345 (U+202F); pl
// 12 345 (U+00A0) but 2000.
func (l *Locale) Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	_, group, minDigits := l.separators()
	return sign + grouped(s, group, minDigits)
}

// Float writes x for the locale with at most three fraction digits (as
// Intl.NumberFormat does by default).
func (l *Locale) Float(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(math.Abs(x), 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	sign := ""
	if x < 0 && s != "0" {
		sign = "-"
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	decimal, group, minDigits := l.separators()
	out := sign + grouped(intPart, group, minDigits)
	if hasFrac {
		out += decimal + frac
	}
	return out
}

func grouped(digits, sep string, minDigits int) string {
	if len(digits) < minDigits {
		return digits
	}
	var b strings.Builder
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(digits[:first])
	for i := first; i < len(digits); i += 3 {
		b.WriteString(sep)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// LearnSegment is the locale segment of learn.microsoft.com addresses for
// the locale: en-us, pl-pl, ja-jp, fr-fr.
func (l *Locale) LearnSegment() string {
	switch l.Lang() {
	case "pl":
		return "pl-pl"
	case "ja":
		return "ja-jp"
	case "fr":
		return "fr-fr"
	}
	return "en-us"
}

// LearnURL rewrites a learn.microsoft.com address to the locale's edition;
// any other address comes back as it is.
func (l *Locale) LearnURL(url string) string {
	const host = "https://learn.microsoft.com/"
	rest, ok := strings.CutPrefix(url, host)
	if !ok {
		return url
	}
	if len(rest) >= 6 && rest[2] == '-' && rest[5] == '/' && isLower(rest[:2]) && isLower(rest[3:5]) {
		rest = rest[6:]
	}
	return host + l.LearnSegment() + "/" + rest
}

func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
