// Package mediatype reads a Content-Type or one Accept entry the way Go's
// mime.ParseMediaType does (the grammar of RFC 2045 with RFC 2231's
// continued and encoded parameters). It is written here so that the
// browser build does not link the mime package and its extension tables; a
// fuzz target holds it to mime's answers.
package mediatype

import (
	"strconv"
	"strings"
	"unicode"
)

// Parse reads a media type as mime.ParseMediaType does: the type in lower
// case and the parameters by lower-case name. ok is false wherever mime
// reports an error.
func Parse(v string) (mt string, params map[string]string, ok bool) {
	base, _, _ := strings.Cut(v, ";")
	mt = strings.TrimSpace(strings.ToLower(base))
	if !validMediaType(mt) {
		return "", nil, false
	}
	params = make(map[string]string)
	// Parameters named with a '*' (RFC 2231) by their name before the star.
	var starred map[string]map[string]string
	v = v[len(base):]
	for len(v) > 0 {
		v = strings.TrimLeftFunc(v, unicode.IsSpace)
		if len(v) == 0 {
			break
		}
		key, value, rest := mediaParam(v)
		if key == "" {
			if strings.TrimSpace(rest) == ";" { // a trailing semicolon is no error
				break
			}
			return "", nil, false
		}
		into := params
		if name, _, star := strings.Cut(key, "*"); star {
			if starred == nil {
				starred = make(map[string]map[string]string)
			}
			if into = starred[name]; into == nil {
				into = make(map[string]string)
				starred[name] = into
			}
		}
		if old, dup := into[key]; dup && old != value { // a repeat is allowed when equal
			return "", nil, false
		}
		into[key] = value
		v = rest
	}
	for name, pieces := range starred {
		joinContinued(params, name, pieces)
	}
	return mt, params, true
}

// joinContinued sets params[name] from its starred pieces: name* (encoded)
// alone, or the run name*0, name*1, ... of plain or encoded (name*N*)
// pieces. An undecodable encoded value leaves the plain one.
func joinContinued(params map[string]string, name string, pieces map[string]string) {
	if v, ok := pieces[name+"*"]; ok {
		if dec, ok := decodeExtValue(v); ok {
			params[name] = dec
		}
		return
	}
	var b strings.Builder
	found := false
	for n := 0; ; n++ {
		key := name + "*" + strconv.Itoa(n)
		if v, ok := pieces[key]; ok {
			found = true
			b.WriteString(v)
			continue
		}
		v, ok := pieces[key+"*"]
		if !ok {
			break
		}
		found = true
		if n == 0 {
			if dec, ok := decodeExtValue(v); ok {
				b.WriteString(dec)
			}
		} else {
			dec, _ := unescapePercent(v)
			b.WriteString(dec)
		}
	}
	if found {
		params[name] = b.String()
	}
}

// decodeExtValue reads charset'language'percent-encoded text; only
// us-ascii and utf-8 are taken, as by mime.
func decodeExtValue(v string) (string, bool) {
	charset, v, ok := strings.Cut(v, "'")
	if !ok {
		return "", false
	}
	if _, v, ok = strings.Cut(v, "'"); !ok {
		return "", false
	}
	if c := strings.ToLower(charset); c != "us-ascii" && c != "utf-8" {
		return "", false
	}
	return unescapePercent(v)
}

// unescapePercent decodes %XX escapes; a malformed one fails the whole.
func unescapePercent(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := hexDigit(s[i+1])
		lo, ok2 := hexDigit(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b), true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// validMediaType accepts token or token/token (a bare token is what mime
// takes for a disposition).
func validMediaType(s string) bool {
	typ, rest := cutToken(s)
	if typ == "" {
		return false
	}
	if rest == "" {
		return true
	}
	rest, ok := strings.CutPrefix(rest, "/")
	if !ok {
		return false
	}
	sub, rest := cutToken(rest)
	return sub != "" && rest == ""
}

// mediaParam reads "; name=value" from the start of v; key is "" when v
// does not start with one.
func mediaParam(v string) (key, value, rest string) {
	rest = strings.TrimLeftFunc(v, unicode.IsSpace)
	rest, ok := strings.CutPrefix(rest, ";")
	if !ok {
		return "", "", v
	}
	key, rest = cutToken(strings.TrimLeftFunc(rest, unicode.IsSpace))
	key = strings.ToLower(key)
	if key == "" {
		return "", "", v
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	if rest, ok = strings.CutPrefix(rest, "="); !ok {
		return "", "", v
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	value, after := paramValue(rest)
	if value == "" && after == rest {
		return "", "", v
	}
	return key, value, after
}

// paramValue reads a token or a quoted string. Inside quotes a backslash
// escapes only a special character (before anything else it is itself, as
// old browsers send file paths), and a CR or LF fails the value.
func paramValue(v string) (value, rest string) {
	if v == "" || v[0] != '"' {
		return cutToken(v)
	}
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			return b.String(), v[i+1:]
		case c == '\\' && i+1 < len(v) && isTSpecial(v[i+1]):
			i++
			b.WriteByte(v[i])
		case c == '\r' || c == '\n':
			return "", v
		default:
			b.WriteByte(c)
		}
	}
	return "", v // no closing quote
}

// cutToken splits v after its leading RFC 2045 token.
func cutToken(v string) (token, rest string) {
	for i := 0; i < len(v); i++ {
		if !isTokenByte(v[i]) {
			return v[:i], v[i:]
		}
	}
	return v, ""
}

// tspecials are RFC 2045's special characters.
const tspecials = `()<>@,;:\"/[]?=`

func isTSpecial(c byte) bool { return strings.IndexByte(tspecials, c) >= 0 }

// isTokenByte: printable US-ASCII other than space and the specials.
func isTokenByte(c byte) bool { return c > ' ' && c < 0x7f && !isTSpecial(c) }
