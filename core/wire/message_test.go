package wire

import (
	"bufio"
	"bytes"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
	"testing"
)

// TestCanonicalKey: keys are spelled as net/textproto spells them.
func TestCanonicalKey(t *testing.T) {
	for _, k := range []string{"x-ms-date", "X-MS-VERSION", "etag", "Content-Type", "dataserviceid", "a b", "", "x_y", "é-x", "-a", "A--b",
		"DataServiceVersion", "MaxDataServiceVersion", "x-ms-version", "x-ms-client-request-id", "Content-ID", "content-md5", "ETag",
		"x-ms-version-x", strings.Repeat("ab-", 20)} {
		if got, want := CanonicalKey(k), textproto.CanonicalMIMEHeaderKey(k); got != want {
			t.Errorf("CanonicalKey(%q) = %q, textproto %q", k, got, want)
		}
	}
	// The names the Go SDK writes in every batch part cost no allocation.
	for _, k := range []string{"DataServiceVersion", "x-ms-version"} {
		if n := testing.AllocsPerRun(10, func() { CanonicalKey(k) }); n != 0 {
			t.Errorf("CanonicalKey(%q): %v allocations", k, n)
		}
	}
}

// FuzzCanonicalKey: any key is spelled as net/textproto spells it, the
// interned well-known names in any case included.
func FuzzCanonicalKey(f *testing.F) {
	for _, k := range append([]string{"x-ms-version", "dATAsERVICEvERSION", "a b", "x_y", "é-x", "\u212a"}, wellKnownNames[:]...) {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := CanonicalKey(k), textproto.CanonicalMIMEHeaderKey(k); got != want {
			t.Fatalf("CanonicalKey(%q) = %q, textproto %q", k, got, want)
		}
	})
}

// TestStatusText: every code net/http names has the same phrase here.
func TestStatusText(t *testing.T) {
	for code := 100; code < 600; code++ {
		if got, want := StatusText(code), http.StatusText(code); got != want {
			t.Errorf("StatusText(%d) = %q, net/http %q", code, got, want)
		}
	}
}

var headerSeeds = []string{
	"A: 1\r\nb: 2\r\nA: 3\r\n\r\nrest",
	"X-Ms-Date:  Tue, 01 Jan 2030 00:00:00 GMT \r\n\r\n",
	"Folded: one\r\n two\r\n\tthree\r\n\r\n",
	"\r\n",
	" lead: 1\r\n\r\n",
	"nocolon\r\n\r\n",
	"Bad\x01: 1\r\n\r\n",
	"Ctl: a\x01b\r\n\r\n",
	"Spaced Name: 1\r\n\r\n",
	"A: 1\r\n",
	"content-type: a\r\nContent-Type: b\r\nB:\r\n\r\n",
}

// FuzzReadHeader: a header block accepted here is read by net/textproto
// to the same fields and the same remainder.
func FuzzReadHeader(f *testing.F) {
	for _, s := range headerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, rest, err := ReadHeader([]byte(s))
		var pool ValuePool
		th, trest, terr := ReadHeaderText([]byte(s), s, &pool)
		if (err == nil) != (terr == nil) || !reflect.DeepEqual(h, th) || !bytes.Equal(rest, trest) {
			t.Fatalf("%q: ReadHeaderText gives %q %q %v, ReadHeader %q %q %v", s, th, trest, terr, h, rest, err)
		}
		// readField reads one field of the block as ReadHeader reads it, and
		// fails where ReadHeader fails, both from the bytes and the text.
		for _, key := range []string{"Content-Type", "A", "B"} {
			for _, text := range []bool{false, true} {
				src := ""
				if text {
					src = s
				}
				v, frest, ferr := readField([]byte(s), src, text, key)
				if ferr != err || !bytes.Equal(frest, rest) || (err == nil || err == errUnterminated) && v != h.Get(key) {
					t.Fatalf("%q: readField(%q) gives %q %q %v, ReadHeader %q %q %v", s, key, v, frest, ferr, h, rest, err)
				}
			}
		}
		if err != nil {
			return
		}
		r := bufio.NewReader(bytes.NewReader([]byte(s)))
		want, werr := textproto.NewReader(r).ReadMIMEHeader()
		if werr != nil {
			t.Fatalf("%q: accepted what textproto refuses (%v)", s, werr)
		}
		if len(h)+len(want) > 0 && !reflect.DeepEqual(map[string][]string(h), map[string][]string(want)) {
			// Folded values may differ in trailing blanks only.
			t.Fatalf("%q: %q, textproto %q", s, h, want)
		}
		if r.Buffered() != len(rest) {
			t.Fatalf("%q: rest %q, textproto leaves %d bytes", s, rest, r.Buffered())
		}
	})
}

// TestRequestLine reads request lines and refuses malformed ones.
func TestRequestLine(t *testing.T) {
	l, rest, err := ReadRequestLine([]byte("MERGE http://h/a/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\nX: 1"))
	if err != nil || l.Method != "MERGE" || l.Target != "http://h/a/t(PartitionKey='p',RowKey='r')" || string(rest) != "X: 1" {
		t.Fatalf("got %+v %q %v", l, rest, err)
	}
	for _, bad := range []string{"GET /t\r\n", "G\x01T /t HTTP/1.1\r\n", "GET /t HTTP/11\r\n", "\r\n", "GET /t HTTP/1.1\r"} {
		if _, _, err := ReadRequestLine([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
		if _, _, err := ReadRequestLineText([]byte(bad), bad); err == nil {
			t.Errorf("%q accepted from its text", bad)
		}
	}
	// Read from the text, the same line, its fields substrings of the text.
	const text = "PUT /a/t() HTTP/1.1\r\nB: 2"
	if l, rest, err := ReadRequestLineText([]byte(text), text); err != nil || l != (RequestLine{"PUT", "/a/t()", "HTTP/1.1"}) || string(rest) != "B: 2" {
		t.Errorf("from the text: %+v %q %v", l, rest, err)
	}
	// A line without its ending runs to the end of the text.
	if l, rest, err := ReadRequestLine([]byte("GET /t HTTP/1.1")); err != nil || l.Target != "/t" || len(rest) != 0 {
		t.Errorf("unterminated line: %+v %q %v", l, rest, err)
	}
	code, _, err := ReadStatusLine([]byte("HTTP/1.1 204 No Content\r\n"))
	if err != nil || code != 204 {
		t.Fatalf("status %d %v", code, err)
	}
}
