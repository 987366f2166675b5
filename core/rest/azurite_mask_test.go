package rest_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The masking of `# azurite:` transcripts. Azurite's answers carry the
// wall-clock time of the recording and random ids; the recorder replaces the
// times with the replay's fixed clock (keeping Azurite's own format and
// precision) and both sides number their ids in order of first appearance,
// so a replay compares everything else byte for byte.

// idPattern finds the ids a server invents per request: the request id (a
// header, and a line of error messages, &#xA; before it in XML) and the
// $batch response boundaries.
// An id ends before "--", so a closing delimiter names the id it closes.
var idPattern = regexp.MustCompile(`(X-Ms-Request-Id: |RequestId:|batchresponse_|changesetresponse_)([0-9A-Za-z]{1,64}(?:-[0-9A-Za-z]{1,64}){0,8})`)

// framing lists the header fields masked out on both sides: how a body is
// framed and whether the connection stays open are the HTTP server's
// (Azurite's Node server sends chunked bodies and Keep-Alive: timeout=5),
// not the Table service's.
var framing = []string{"Connection", "Content-Length", "Keep-Alive", "Transfer-Encoding"}

// maskFraming drops the framing header fields of a rendered response.
func maskFraming(resp string) string {
	head, body, _ := strings.Cut(resp, "\n\n")
	lines := strings.Split(head, "\n")
	kept := lines[:1]
	for _, l := range lines[1:] {
		name, _, _ := strings.Cut(l, ":")
		if !slices.Contains(framing, name) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n") + "\n\n" + body
}

// maskIDs numbers the invented ids of a transcript's responses in order of
// first appearance; seen is shared by all responses of one transcript.
func maskIDs(resp string, seen map[string]string) string {
	return idPattern.ReplaceAllStringFunc(resp, func(m string) string {
		sub := idPattern.FindStringSubmatch(m)
		id, ok := seen[sub[2]]
		if !ok {
			id = fmt.Sprintf("id-%d", len(seen)+1)
			seen[sub[2]] = id
		}
		return sub[1] + id
	})
}

// isoPattern finds ISO 8601 UTC times, plain or percent-encoded (in ETags
// and continuation values), with any number of fractional digits.
var isoPattern = regexp.MustCompile(`(\d{4}-\d\d-\d\dT\d\d)(:|%3A)(\d\d)(?::|%3A)(\d\d)(\.\d+)?Z`)

// httpDatePattern finds RFC 1123 dates (the Date header).
var httpDatePattern = regexp.MustCompile(`[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT`)

// httpTimeFormat is the Date header's form (net/http's TimeFormat).
const httpTimeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// maskTimes replaces every time within [from, to] — the recording's
// wall-clock window, so the times a request sent (an entity's DateTime) stay
// — with at, written in the form the server used.
func maskTimes(resp string, from, to, at time.Time) string {
	resp = isoPattern.ReplaceAllStringFunc(resp, func(m string) string {
		sub := isoPattern.FindStringSubmatch(m)
		plain := strings.NewReplacer("%3A", ":").Replace(m)
		t, err := time.Parse(time.RFC3339Nano, plain)
		if err != nil || t.Before(from) || t.After(to) {
			return m
		}
		sep := sub[2]
		frac := ""
		if sub[5] != "" {
			frac = "." + strings.Repeat("0", len(sub[5])-1)
		}
		return at.Format("2006-01-02T15") + sep + at.Format("04") + sep + at.Format("05") + frac + "Z"
	})
	return httpDatePattern.ReplaceAllStringFunc(resp, func(m string) string {
		t, err := time.Parse(time.RFC1123, m)
		if err != nil || t.Before(from) || t.After(to) {
			return m
		}
		return at.Format(httpTimeFormat)
	})
}

func TestAzuriteMask(t *testing.T) {
	from := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	to := from.Add(time.Hour)
	resp := "HTTP/1.1 201 Created\nConnection: keep-alive\nContent-Length: 3\nDate: Thu, 26 Nov 2026 12:15:30 GMT\n" +
		"Etag: W/\"datetime'2026-11-26T12%3A15%3A30.1230000Z'\"\nX-Ms-Request-Id: 5d5d8ff7-4f7d\n\n" +
		`{"Timestamp":"2026-11-26T12:15:30.123Z","DateTime":"2013-08-02T17:37:43.0090043Z","m":"RequestId:5d5d8ff7-4f7d\nTime"}` +
		"\r\n--batchresponse_ab-cd\r\n--changesetresponse_ef--\r\n--batchresponse_ab-cd--"
	got := maskIDs(maskTimes(maskFraming(resp), from, to, replayClock), map[string]string{})
	want := "HTTP/1.1 201 Created\nDate: Sun, 22 Nov 2026 12:00:00 GMT\n" +
		"Etag: W/\"datetime'2026-11-22T12%3A00%3A00.0000000Z'\"\nX-Ms-Request-Id: id-1\n\n" +
		`{"Timestamp":"2026-11-22T12:00:00.000Z","DateTime":"2013-08-02T17:37:43.0090043Z","m":"RequestId:id-1\nTime"}` +
		"\r\n--batchresponse_id-2\r\n--changesetresponse_id-3--\r\n--batchresponse_id-2--"
	if got != want {
		t.Fatalf("masked:\n%s\nwant:\n%s", got, want)
	}
}
