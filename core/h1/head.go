package h1

import (
	"net/url"
	"strings"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/wire"
)

// head is a request's line and header block as the front takes it: only
// what net/http would read the same way; parseHead refuses anything else,
// and the connection then goes to net/http with the request unread.
type head struct {
	method string
	target string // the request-target as sent: origin-form only
	url    *url.URL
	host   string
	header rest.Header
	length int64 // Content-Length, 0 when absent
	close  bool  // the client sent Connection: close
}

// methods are the request methods the front takes (the SDKs' and CORS
// preflights); any other token goes to net/http.
var methods = [...]string{"GET", "HEAD", "POST", "PUT", "DELETE", "MERGE", "PATCH", "OPTIONS"}

// parseHead reads a request head: b is the block up to and including its
// blank line, text the same bytes as a string (header values are
// substrings of it). ok is false for anything the front leaves to net/http:
// another method or version, a target that is not a clean path, folded or
// malformed lines, a missing, repeated or unusual Host, Transfer-Encoding,
// Expect, Upgrade, Trailer, a Content-Length that is not one plain count or
// is over maxBody.
func parseHead(text string, maxBody int64, mem *headMemory) (h head, ok bool) {
	line, rest, found := strings.Cut(text, "\r\n")
	if !found {
		return h, false
	}
	m, after, found := strings.Cut(line, " ")
	if !found {
		return h, false
	}
	for _, known := range methods {
		if m == known {
			h.method = known
		}
	}
	target, proto, found := strings.Cut(after, " ")
	if h.method == "" || !found || proto != "HTTP/1.1" || target == "" || target[0] != '/' {
		return h, false
	}
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c == 0x7f {
			return h, false
		}
	}
	var last *lastURL
	if mem != nil {
		last = &mem.last
	}
	u, ok := last.parse(target)
	if !ok {
		return h, false
	}
	h.target, h.url = target, u
	if !h.readFields(rest, maxBody, mem) {
		return h, false
	}
	return h, true
}

// keptFields bounds the header a connection keeps for reuse: a larger
// one (up to the header limit) is made for its request alone, so that
// clearing the kept map stays cheap.
const keptFields = 32

// headMemory is what a connection keeps from one request head to the next:
// the last request-target parsed, and the header map and value slots,
// reused because the handler is done with a request's header before the
// connection reads the next.
type headMemory struct {
	last   lastURL
	header rest.Header
	values []string
}

// lastURL keeps a connection's last request-target parsed: an SDK sends
// request after request to the same one (inserts into a table), and a copy
// costs less than parsing it again.
type lastURL struct {
	target string
	u      url.URL
}

// parse returns target parsed as net/http parses it, refusing one with a
// host (absolute form); last may be nil. A URL from last is shared by the
// connection's requests to the same target: the handler reads it and is
// done with it before the next request is read.
func (last *lastURL) parse(target string) (*url.URL, bool) {
	if last != nil && last.target == target && target != "" {
		return &last.u, true
	}
	u, err := url.ParseRequestURI(target)
	if err != nil || u.Host != "" {
		return nil, false
	}
	if last != nil {
		last.target, last.u = target, *u
	}
	return u, true
}

// readFields reads the header lines of text (after the request line) into
// h.header: mem's map and value slots when mem is not nil.
func (h *head) readFields(text string, maxBody int64, mem *headMemory) bool {
	n := strings.Count(text, "\n") - 1 // the last line feed ends the block
	if n < 0 {
		return false
	}
	var values []string
	switch {
	case mem == nil || n > keptFields:
		h.header, values = make(rest.Header, n), make([]string, n)
	default:
		if mem.header == nil {
			mem.header = make(rest.Header, n)
		}
		clear(mem.header)
		if cap(mem.values) < n {
			mem.values = make([]string, n)
		}
		h.header, values = mem.header, mem.values[:n]
	}
	hosts, lengths := 0, 0
	for i := 0; ; i++ {
		end := strings.IndexByte(text, '\n')
		if end < 1 || text[end-1] != '\r' {
			return false // a bare line feed: net/http's reading of it is its own
		}
		line := text[:end-1]
		if line == "" {
			break
		}
		text = text[end+1:]
		colon := strings.IndexByte(line, ':')
		if colon <= 0 {
			return false
		}
		key, value := line[:colon], wire.TrimBlanks(line[colon+1:])
		key, ok := canonical(key)
		if !ok || !wire.ValidValue(value) {
			return false
		}
		switch key {
		case "Host":
			hosts++
			h.host = value
		case "Content-Length":
			lengths++
			v, ok := count(value)
			if !ok || v > maxBody {
				return false
			}
			h.length = v
		case "Transfer-Encoding", "Expect", "Upgrade", "Trailer":
			return false
		case "Connection":
			h.close = h.close || hasToken(value, "close")
		}
		if vs, seen := h.header[key]; seen {
			h.header[key] = append(vs, value)
		} else {
			values[i] = value
			h.header[key] = values[i : i+1 : i+1]
		}
	}
	if hosts != 1 || lengths > 1 || !validHost(h.host) {
		return false
	}
	// As net/http's server: the Host field becomes the request's host and
	// leaves the map; Pragma: no-cache implies Cache-Control: no-cache.
	delete(h.header, "Host")
	if p := h.header["Pragma"]; len(p) > 0 && p[0] == "no-cache" {
		if _, set := h.header["Cache-Control"]; !set {
			h.header["Cache-Control"] = []string{"no-cache"}
		}
	}
	return true
}

// canonical returns a field name in canonical form (wire.CanonicalKey:
// the name itself when it already is, an interned one for the fields SDKs
// send); ok is false for an empty name or one with a byte outside a token
// (net/http refuses those).
func canonical(key string) (string, bool) {
	if key == "" {
		return "", false
	}
	for i := 0; i < len(key); i++ {
		if !wire.TokenByte(key[i]) {
			return "", false
		}
	}
	return wire.CanonicalKey(key), true
}

// validHost accepts the Host values the front takes: a name or an address
// with an optional port, in plain letters, digits and . - _ : [ ]. Anything
// else (net/http has its own rule for it) goes to net/http.
func validHost(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !hostBytes[v[i]] {
			return false
		}
	}
	return true
}

// hostBytes marks the bytes validHost accepts.
var hostBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-_:[]", byte(c)) >= 0
	}
	return t
}()

// count parses a Content-Length of 1 to 18 digits.
func count(v string) (int64, bool) {
	if v == "" || len(v) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// hasToken reports whether the comma- or blank-separated list v holds token
// (ASCII, compared without case), as net/http reads Connection.
func hasToken(v, token string) bool {
	for i := 0; i+len(token) <= len(v); i++ {
		if !strings.EqualFold(v[i:i+len(token)], token) {
			continue
		}
		if i > 0 && !tokenBoundary(v[i-1]) {
			continue
		}
		if end := i + len(token); end != len(v) && !tokenBoundary(v[end]) {
			continue
		}
		return true
	}
	return false
}

func tokenBoundary(b byte) bool { return b == ' ' || b == ',' || b == '\t' }

// cleanPath reports whether an escaped path is one net/http's ServeMux
// serves as it is, without redirecting to a cleaned form: no empty, "." or
// ".." segment.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if strings.Contains(p, "//") || strings.Contains(p, "/./") || strings.Contains(p, "/../") {
		return false
	}
	return !strings.HasSuffix(p, "/.") && !strings.HasSuffix(p, "/..")
}
