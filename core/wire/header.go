package wire

import "strings"

// Header is a message's header fields by canonical key. Its underlying type
// is net/http's Header's, so an adapter converts one into the other without
// copying.
type Header map[string][]string

// Get returns the first value of key, "" when absent.
func (h Header) Get(key string) string {
	if v := h[CanonicalKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values returns every value of key.
func (h Header) Values(key string) []string { return h[CanonicalKey(key)] }

// Set replaces the values of key with value.
func (h Header) Set(key, value string) { h[CanonicalKey(key)] = []string{value} }

// Add appends value to the values of key.
func (h Header) Add(key, value string) {
	k := CanonicalKey(key)
	h[k] = append(h[k], value)
}

// Del removes key.
func (h Header) Del(key string) { delete(h, CanonicalKey(key)) }

// CanonicalKey returns key as HTTP/1.1 servers and clients spell it: the
// first letter and each letter after a hyphen upper case, the others lower
// case ("x-ms-date" becomes "X-Ms-Date"). A key holding a byte that cannot
// be in a field name is returned unchanged. A key already canonical costs
// nothing.
func CanonicalKey(key string) string {
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !TokenByte(c) {
			return key
		}
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			for j := i + 1; j < len(key); j++ {
				if !TokenByte(key[j]) {
					return key
				}
			}
			if k, ok := wellKnown(key); ok {
				return k
			}
			if len(key) <= 64 {
				var buf [64]byte
				b := buf[:len(key)]
				copy(b, key)
				canonicalize(b)
				return string(b)
			}
			b := []byte(key)
			canonicalize(b)
			return string(b)
		}
		upper = c == '-'
	}
	return key
}

// wellKnown returns, without allocating, the canonical name key spells
// in any case when it is one of the fields clients send, often in another
// case (the Go SDK writes "DataServiceVersion" and "x-ms-version" in every
// part of a batch, other clients write names in lower case). key holds
// token bytes only, whose canonical form differs from them in case alone.
func wellKnown(key string) (string, bool) {
	for _, k := range wellKnownNames {
		if len(k) == len(key) && strings.EqualFold(k, key) {
			return k, true
		}
	}
	return "", false
}

// wellKnownNames are the names wellKnown interns (a list, not a switch:
// as a switch they added 5 KB to the browser build).
var wellKnownNames = [...]string{
	"Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization",
	"Cache-Control", "Connection", "Content-Length", "Content-Md5", "Content-Type", "Content-Id",
	"Dataserviceversion", "Date", "Etag", "Host", "If-Match", "If-None-Match",
	"Maxdataserviceversion", "Origin", "Pragma", "Prefer", "Referer", "Sec-Fetch-Site", "User-Agent",
	"X-Ms-Client-Request-Id", "X-Ms-Date", "X-Ms-Return-Client-Request-Id", "X-Ms-Version",
	"Access-Control-Request-Method", "Access-Control-Request-Headers", "Traceparent",
}

// canonicalize rewrites a field name of token bytes in canonical case.
func canonicalize(b []byte) {
	upper := true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - ('a' - 'A')
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		}
		upper = c == '-'
	}
}

// TokenByte reports whether c may appear in a field name or a method (an
// RFC 9110 token character).
func TokenByte(c byte) bool { return tokenTable[c] }

// tokenTable marks the token characters: letters, digits and
// !#$%&'*+-.^_`|~.
var tokenTable = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", byte(c)) >= 0
	}
	return t
}()

// valueByte reports whether c may appear in a field value: visible ASCII,
// space, tab, and any byte from 0x80 on.
func valueByte(c byte) bool {
	return c == '\t' || c >= 0x20 && c != 0x7f
}

// ValidValue reports whether every byte of a field value may appear in one
// (valueByte).
func ValidValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if !valueByte(v[i]) {
			return false
		}
	}
	return true
}
