package rest

import (
	"sync/atomic"
	"time"
)

// timeFormat is the HTTP date layout (RFC 9110's IMF-fixdate).
const timeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// parseHTTPTime reads an HTTP date in any of the three forms RFC 9110 lets
// a recipient accept.
func parseHTTPTime(s string) (time.Time, error) {
	var err error
	for _, layout := range [...]string{timeFormat, time.RFC850, time.ANSIC} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// dateCache keeps the Date header's text for the current second: formatting
// it costs more than the rest of a small response's headers.
type dateCache struct {
	last atomic.Pointer[dateText]
}

type dateText struct {
	unix int64
	text string
}

// format returns now as an HTTP date (GMT), reusing the text when now falls
// in the same second as the last call.
func (c *dateCache) format(now time.Time) string {
	sec := now.Unix()
	if d := c.last.Load(); d != nil && d.unix == sec {
		return d.text
	}
	d := &dateText{unix: sec, text: now.UTC().Format(timeFormat)}
	c.last.Store(d)
	return d.text
}
