package xmlbody

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// head starts every XML body the service writes: a UTF-8 byte-order mark
// and the declaration (live recordings).
const head = "\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>"

// escapeText writes s as XML character data, escaped as encoding/xml's
// EscapeText does (the bodies were written with it): quotes, ampersand,
// angle brackets, tab and line ends as references, and a character XML
// does not allow (or a byte that is not UTF-8) as U+FFFD.
func escapeText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if isChar(r) && (r != utf8.RuneError || n > 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(s[last : i-n])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// time7 writes an ACL time as the service does: 7 fractional digits.
func time7(t edm.Ticks) string {
	frac := int64(t) % 10_000_000
	s := strconv.FormatInt(frac, 10)
	return t.Time().Format("2006-01-02T15:04:05") + "." + strings.Repeat("0", 7-len(s)) + s + "Z"
}

// Stats is the body of Get Service Stats at now: tableplay has one copy of
// the data, always current.
func Stats(now time.Time) []byte {
	return []byte(head + "<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>" +
		now.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT") + "</LastSyncTime></GeoReplication></StorageServiceStats>")
}

// Error is the error body of the XML endpoints: e's code and message, with
// the request's id and time.
func Error(e *tableerr.Error, id string, now time.Time) []byte {
	var b bytes.Buffer
	b.WriteString(head + "<Error><Code>" + string(e.Code) + "</Code><Message>")
	escapeText(&b, e.Message+"\nRequestId:"+id+"\nTime:"+time7(edm.TicksFromTime(now)))
	b.WriteString("</Message></Error>")
	return b.Bytes()
}
