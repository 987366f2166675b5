package rest

import (
	"net/http"
	"sync/atomic"
	"time"
)

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
	d := &dateText{unix: sec, text: now.UTC().Format(http.TimeFormat)}
	c.last.Store(d)
	return d.text
}
