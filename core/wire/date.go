package wire

import (
	"sync/atomic"
	"time"
)

// timeFormat is the HTTP date layout (RFC 9110's IMF-fixdate).
const timeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// ParseHTTPTime reads an HTTP date in any of the three forms RFC 9110 lets
// a recipient accept.
func ParseHTTPTime(s string) (time.Time, error) {
	if t, ok := parseFixdate(s); ok {
		return t, nil
	}
	var err error
	for _, layout := range [...]string{timeFormat, time.RFC850, time.ANSIC} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// parseFixdate reads the form every SDK sends, "Sun, 06 Nov 1994 08:49:37
// GMT", as time.Parse(timeFormat, s) reads it (names in any case, the
// weekday only checked to be one), in a twentieth of its time; ok is false
// for anything else, which ParseHTTPTime then reads the long way.
func parseFixdate(s string) (t time.Time, ok bool) {
	if len(s) != len(timeFormat) || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
		s[19] != ':' || s[22] != ':' || s[25:] != " GMT" {
		return t, false
	}
	if threeLetters(s[:3], "SunMonTueWedThuFriSat") < 0 {
		return t, false
	}
	month := threeLetters(s[8:11], "JanFebMarAprMayJunJulAugSepOctNovDec") + 1
	day, ok1 := decimal(s[5:7])
	year, ok2 := decimal(s[12:16])
	hour, ok3 := decimal(s[17:19])
	minute, ok4 := decimal(s[20:22])
	sec, ok5 := decimal(s[23:25])
	if month == 0 || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || hour > 23 || minute > 59 || sec > 59 || day < 1 {
		return t, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC)
	if t.Day() != day { // past the month's end: time.Parse refuses it
		return time.Time{}, false
	}
	return t, true
}

// threeLetters is the index of s, three ASCII letters in any case, among
// list's names of three letters each; -1 when it is none of them.
func threeLetters(s, list string) int {
	var b [3]byte
	for i := range b {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return -1
		}
		b[i] = c
	}
	for i := 0; i+3 <= len(list); i += 3 {
		if b[0] == list[i]|0x20 && b[1] == list[i+1]|0x20 && b[2] == list[i+2]|0x20 {
			return i / 3
		}
	}
	return -1
}

// decimal reads s, all decimal digits.
func decimal(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// DateCache keeps the Date header's text for the current second: formatting
// it costs more than the rest of a small response's headers.
type DateCache struct {
	last atomic.Pointer[dateText]
}

type dateText struct {
	unix int64
	text string
}

// Format returns now as an HTTP date (GMT), reusing the text when now falls
// in the same second as the last call.
func (c *DateCache) Format(now time.Time) string {
	sec := now.Unix()
	if d := c.last.Load(); d != nil && d.unix == sec {
		return d.text
	}
	d := &dateText{unix: sec, text: now.UTC().Format(timeFormat)}
	c.last.Store(d)
	return d.text
}
