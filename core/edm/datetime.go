package edm

import (
	"strconv"
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

// AppendText appends the service's text form of t to b.
func (t Ticks) AppendText(b []byte) []byte {
	tm := t.Time()
	b = tm.AppendFormat(b, "2006-01-02T15:04:05")
	frac := int64(t) % ticksPerSecond
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
		f, _ := strconv.ParseInt(digits, 10, 64)
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
		return 0, &ParseError{Type: DateTime, Text: s, Problem: OutOfRange, Reason: "before 1601-01-01T00:00:00Z, the earliest DateTime the service stores"}
	}
	if t > MaxTicks {
		return 0, &ParseError{Type: DateTime, Text: s, Problem: OutOfRange, Reason: "after 9999-12-31T23:59:59.9999999Z"}
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
	d := py*365 + py/4 - py/100 + py/400
	for i := 1; i < m; i++ {
		d += int64(daysIn(y, i))
	}
	return d
}
