package wire

import (
	"net/url"
	"strings"
)

// TargetURLs hands out the URLs of a batch's parts from shared chunks: one
// allocation for many parts instead of one each.
type TargetURLs struct{ free []url.URL }

// Parse reads a part's request target as url.ParseRequestURI does. The
// forms SDKs send (an absolute http or https URL, or a path, with no
// escapes, query or user) are read directly; anything else goes to
// url.ParseRequestURI.
func (t *TargetURLs) Parse(target string, hint int) (*url.URL, error) {
	u, ok := simpleTarget(target)
	if !ok {
		return url.ParseRequestURI(target)
	}
	if len(t.free) == 0 {
		t.free = make([]url.URL, min(max(hint, 1), 16))
	}
	p := &t.free[0]
	t.free = t.free[1:]
	*p = u
	return p, nil
}

// simpleTarget reads "http://host[:port]/path", "https://…" or "/path",
// with an optional "?query", when every byte of host and path is one
// url.ParseRequestURI passes through unchanged (no '%', '#', '@', space or
// control byte) and the query holds only visible ASCII, giving the URL it
// would give; ok is false for any other target. The Go SDK's parts carry a
// query ("?%24format=…").
func simpleTarget(s string) (u url.URL, ok bool) {
	if q := strings.IndexByte(s, '?'); q >= 0 {
		query := s[q+1:]
		if query == "" {
			return u, false // url's ForceQuery case
		}
		for i := 0; i < len(query); i++ {
			if c := query[i]; c <= ' ' || c >= 0x7f {
				return u, false
			}
		}
		u, ok = simpleTarget(s[:q])
		u.RawQuery = query
		return u, ok
	}
	rest := s
	switch {
	case len(s) > 7 && s[:7] == "http://":
		u.Scheme, rest = "http", s[7:]
	case len(s) > 8 && s[:8] == "https://":
		u.Scheme, rest = "https", s[8:]
	case len(s) > 0 && s[0] == '/' && (len(s) == 1 || s[1] != '/'):
	default:
		return u, false
	}
	if u.Scheme != "" {
		i := 0
		for i < len(rest) && rest[i] != '/' {
			i++
		}
		host := rest[:i]
		if !simpleHost(host) {
			return u, false
		}
		u.Host, rest = host, rest[i:]
	}
	escaped := false
	for i := 0; i < len(rest); i++ {
		switch pathByte[rest[i]] {
		case pathOther:
			return u, false
		case pathEscaped:
			escaped = true
		}
	}
	u.Path = rest
	if escaped {
		// url keeps the text as written when its own escaping would differ.
		u.RawPath = rest
	}
	return u, true
}

// simpleHost accepts a non-empty host of letters, digits, '.' and '-', with
// an optional ':' and digits after it.
func simpleHost(h string) bool {
	if h == "" {
		return false
	}
	colon := false
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c == ':' && !colon && i > 0:
			colon = true
		case c >= '0' && c <= '9':
		case colon:
			return false
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '.' || c == '-':
		default:
			return false
		}
	}
	return true
}

// The classes of path bytes: kept as they are by url's path escaping,
// valid but escaped by it ("!'()*", so url keeps the raw text), or outside
// the fast path.
const (
	pathOther = iota
	pathPlain
	pathEscaped
)

var pathByte = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			t[c] = pathPlain
		case c < 0x80 && c != 0 && strings.IndexByte("-_.~$&+,/:;=@", byte(c)) >= 0:
			t[c] = pathPlain
		case c < 0x80 && c != 0 && strings.IndexByte("!'()*", byte(c)) >= 0:
			t[c] = pathEscaped
		}
	}
	return t
}()

// ParseQuery splits a query string on '&' only: a literal ';' belongs to the
// value ($format=application/json;odata=nometadata), unlike in
// url.ParseQuery. It is the one reading of a request's query: routing,
// negotiation, Shared Key's canonical resource and shared access
// signatures all take their values from its result.
func ParseQuery(raw string) (url.Values, bool) {
	if raw == "" {
		return nil, true // read-only from here on: a nil map reads as empty
	}
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		q[key] = append(q[key], val)
	}
	return q, true
}
