// Package transcript writes HTTP answers as the golden transcripts of
// core/rest hold them, for the tests that compare answers as text (the
// transcripts themselves, Azurite's recordings, the rooms' parity).
package transcript

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Response writes r with the body already read: the status line, the
// headers sorted by name (one line per value), a blank line and the body.
func Response(r *http.Response, body []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\n", r.StatusCode, http.StatusText(r.StatusCode))
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range r.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteString("\n")
	b.Write(body)
	return b.String()
}
