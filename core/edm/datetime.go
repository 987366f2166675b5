package edm

import (
	"strings"
	"time"
)

// Ticks is an instant in 100-nanosecond units since 0001-01-01T00:00:00Z, the
// resolution and epoch of the service's DateTime.
type Ticks int64

// Bounds of an Edm.DateTime the service accepts.
const (
	MinTicks Ticks = 504911232000000000  // 1601-01-01T00:00:00Z
	MaxTicks Ticks = 3155378975999999999 // 9999-12-31T23:59:59.9999999Z
)

const (
	ticksPerSecond  = 10_000_000
	unixEpochTicks  = 621355968000000000 // 1970-01-01 in ticks
	unixEpochSecond = unixEpochTicks / ticksPerSecond
)

// TicksFromTime converts a time to ticks, truncating below 100 ns.
func TicksFromTime(t time.Time) Ticks {
	return Ticks((t.Unix()+unixEpochSecond)*ticksPerSecond + int64(t.Nanosecond()/100))
}

// Time converts ticks to a UTC time.Time.
func (t Ticks) Time() time.Time {
	sec := int64(t) / ticksPerSecond
	frac := int64(t) % ticksPerSecond
	return time.Unix(sec-unixEpochSecond, frac*100).UTC()
}

// String formats ticks the way the service writes a DateTime:
// 2006-01-02T15:04:05.1234567Z with trailing fractional zeros (and a bare
// point) dropped.
func (t Ticks) String() string { return string(t.AppendText(nil)) }

// AppendText appends the service's text form of t to b. The calendar is
// computed with integer arithmetic (time.Format costs several times more, and
// every entity read writes a Timestamp).
func (t Ticks) AppendText(b []byte) []byte { return t.appendText(b, ":") }

// AppendURLText appends t's text form with each ':' percent-encoded as
// "%3A", as an ETag carries it.
func (t Ticks) AppendURLText(b []byte) []byte { return t.appendText(b, "%3A") }

func (t Ticks) appendText(b []byte, colon string) []byte {
	if t < 0 || t > MaxTicks {
		start := len(b)
		b = t.appendTextSlow(b)
		if colon == ":" {
			return b
		}
		text := string(b[start:])
		return append(b[:start], strings.ReplaceAll(text, ":", colon)...)
	}
	secs := int64(t) / ticksPerSecond
	y, m, d := civil(secs / 86400)
	sod := int(secs % 86400)
	b = append4(b, y)
	b = append(b, '-')
	b = append2(b, m)
	b = append(b, '-')
	b = append2(b, d)
	b = append(b, 'T')
	b = append2(b, sod/3600)
	b = append(b, colon...)
	b = append2(b, sod/60%60)
	b = append(b, colon...)
	b = append2(b, sod%60)
	return appendFraction(b, int64(t)%ticksPerSecond)
}

// appendTextSlow formats through time.Time, for ticks outside 0001–9999.
func (t Ticks) appendTextSlow(b []byte) []byte {
	b = t.Time().AppendFormat(b, "2006-01-02T15:04:05")
	frac := int64(t) % ticksPerSecond
	if frac < 0 {
		frac += ticksPerSecond
	}
	return appendFraction(b, frac)
}

// appendFraction writes ".fffffff" without trailing zeros (nothing for a
// whole second) and the closing 'Z'.
func appendFraction(b []byte, frac int64) []byte {
	if frac != 0 {
		var d [8]byte
		d[0] = '.'
		for i := 7; i >= 1; i-- {
			d[i] = byte('0' + frac%10)
			frac /= 10
		}
		n := 8
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return append(b, 'Z')
}

// civil converts days since 0001-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days-to-civil algorithm, on eras of 400 years).
func civil(days int64) (year, month, day int) {
	z := days + 306 // days since 0000-03-01
	era := z / 146097
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365], from March 1
	mp := (5*doy + 2) / 153                                // [0, 11], March = 0
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if month > 12 {
		month -= 12
	}
	year = int(yoe + era*400)
	if month <= 2 {
		year++
	}
	return year, month, day
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

func append4(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

// ParseDateTime reads an ISO 8601 date-time as the service does:
// yyyy-mm-ddThh:mm:ss with an optional fraction of up to 7 digits and an
// optional zone (Z or ±hh:mm; none means UTC). Instants before 1601 are
// OutOfRange.
func ParseDateTime(s string) (Ticks, error) {
	bad := func(reason string) (Ticks, error) { return 0, malformed(DateTime, s, reason) }
	// yyyy-mm-ddThh:mm:ss is 19 bytes.
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' {
		return bad("not an ISO 8601 date-time (yyyy-mm-ddThh:mm:ssZ)")
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return bad("not an ISO 8601 date-time (yyyy-mm-ddThh:mm:ssZ)")
	}
	if year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return bad("a field is out of its calendar range")
	}
	if day > daysIn(year, month) {
		return bad("the day does not exist in that month")
	}
	rest := s[19:]
	var frac int64
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		digits := rest[1:i]
		if len(digits) == 0 || len(digits) > 7 {
			return bad("the fraction of a second must have 1 to 7 digits")
		}
		f, _ := smallInt(digits) // 1 to 7 digits
		for n := len(digits); n < 7; n++ {
			f *= 10
		}
		frac = f
		rest = rest[i:]
	}
	var offset int64 // seconds east of UTC
	switch {
	case rest == "" || rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(len(s)-5, 2)
		om, ok2 := num(len(s)-2, 2)
		if !ok1 || !ok2 || oh > 14 || om > 59 {
			return bad("the zone offset is not valid")
		}
		offset = int64(oh*3600 + om*60)
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return bad("unexpected text after the time")
	}
	days := daysBefore(year, month) + int64(day-1)
	secs := days*86400 + int64(hour*3600+minute*60+sec) - offset
	t := Ticks(secs*ticksPerSecond + frac)
	if secs < 0 || t < MinTicks {
		return 0, failure(DateTime, s, OutOfRange, "before 1601-01-01T00:00:00Z, the earliest DateTime the service stores")
	}
	if t > MaxTicks {
		return 0, failure(DateTime, s, OutOfRange, "after 9999-12-31T23:59:59.9999999Z")
	}
	return t, nil
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysBefore counts the days from 0001-01-01 to the first of month m of year y
// in the proleptic Gregorian calendar.
func daysBefore(y, m int) int64 {
	py := int64(y - 1)
	d := py*365 + py/4 - py/100 + py/400 + int64(daysBeforeMonth[m])
	if m > 2 && isLeap(y) {
		d++
	}
	return d
}

// daysBeforeMonth is the days of a common year before the first of each
// month (1 to 12).
var daysBeforeMonth = [13]int{0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
