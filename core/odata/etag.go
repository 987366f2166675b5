package odata

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/profile"
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

// ETagIn is ETag in a profile's body style: the Cosmos form writes the
// time with all seven fractional digits (F-COSMOS-BODIES).
func ETagIn(style profile.BodyStyle, t edm.Ticks) string {
	if style != profile.CosmosBodies {
		return ETag(t)
	}
	return ETag7(t)
}

// ETag7 is ETag with the time's seven fractional digits all written, as
// Cosmos DB (F-COSMOS-BODIES) and Azurite (F-AZURITE-TIMESTAMP) write it.
func ETag7(t edm.Ticks) string {
	var buf [64]byte
	b := append(buf[:0], `W/"datetime'`...)
	b = appendTime7URL(b, t)
	return string(append(b, `'"`...))
}

// appendTime7URL is appendTime7 with its colons URL-encoded, as in an ETag.
func appendTime7URL(b []byte, t edm.Ticks) []byte {
	var tmp [40]byte
	for _, c := range appendTime7(tmp[:0], t) {
		if c == ':' {
			b = append(b, "%3A"...)
		} else {
			b = append(b, c)
		}
	}
	return b
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
