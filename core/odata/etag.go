package odata

import (
	"bytes"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
)

// ETag returns an entity's ETag for its Timestamp (F-TIMESTAMP-ETAG):
// W/"datetime'2021-06-09T01%3A17%3A13.2924321Z'".
func ETag(t edm.Ticks) string {
	var buf [64]byte // the longest ETag is 50 bytes: written on the stack, copied once
	return string(AppendETag(buf[:0], t))
}

// AppendETag appends ETag(t) to b.
func AppendETag(b []byte, t edm.Ticks) []byte {
	b = append(b, `W/"datetime'`...)
	b = appendETagTime(b, t)
	return append(b, `'"`...)
}

// AppendETagAs is AppendETag with all seven fractional digits when fixed
// is set, as Azurite writes it (F-AZURITE-TIMESTAMP).
func AppendETagAs(b []byte, t edm.Ticks, fixed bool) []byte {
	if !fixed {
		return AppendETag(b, t)
	}
	b = append(b, `W/"datetime'`...)
	b = appendTicks7(b, t, "%3A")
	return append(b, `'"`...)
}

// appendTicks7 writes t's text form with all seven fractional digits,
// each ':' written as colon.
func appendTicks7(b []byte, t edm.Ticks, colon string) []byte {
	start := len(b)
	b = t.AppendText(b)
	dot := bytes.LastIndexByte(b[start:], '.')
	digits := 0
	if dot < 0 {
		b = append(b[:len(b)-1], '.')
	} else {
		digits = len(b) - start - dot - 2
		b = b[:len(b)-1]
	}
	for ; digits < 7; digits++ {
		b = append(b, '0')
	}
	b = append(b, 'Z')
	if colon == ":" {
		return b
	}
	text := strings.ReplaceAll(string(b[start:]), ":", colon)
	return append(b[:start], text...)
}

// appendETagTime writes the Timestamp URL-encoded as in an ETag: the only
// character of a timestamp that needs it is ':'.
func appendETagTime(b []byte, t edm.Ticks) []byte { return t.AppendURLText(b) }

// ParseETag reads an ETag of the form ETag writes and returns its Timestamp.
// It reports false for anything else (the caller answers InvalidInput).
func ParseETag(s string) (edm.Ticks, bool) {
	const prefix, suffix = `W/"datetime'`, `'"`
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return 0, false
	}
	inner := strings.ReplaceAll(s[len(prefix):len(s)-len(suffix)], "%3A", ":")
	inner = strings.ReplaceAll(inner, "%3a", ":")
	t, err := edm.ParseDateTime(inner)
	if err != nil || !strings.HasSuffix(inner, "Z") {
		return 0, false
	}
	return t, true
}
