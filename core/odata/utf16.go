package odata

import (
	"bytes"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/tableerr"
)

// textual reports why a JSON body's strings cannot be held as the
// service's UTF-16 strings are, or "": bytes that are not UTF-8, or a
// \u escape of a surrogate that is not half of a pair. Such a body is
// refused (F-KEY-UTF8), as a URL key that is not UTF-8 is: read as U+FFFD,
// distinct keys and values would become one. It runs after the body was
// found to be valid JSON, so a backslash is always an escape in a string.
func textual(b []byte) string {
	if !utf8.Valid(b) {
		return "the body holds bytes that are not UTF-8"
	}
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			return ""
		}
		i += j
		if i+1 >= len(b) || b[i+1] != 'u' {
			i += 2
			continue
		}
		r, ok := hex4(b, i+2)
		if !ok {
			i += 2
			continue
		}
		i += 6
		switch {
		case r >= 0xD800 && r < 0xDC00: // a high surrogate: a low one must follow
			if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if r2, ok := hex4(b, i+2); ok && r2 >= 0xDC00 && r2 < 0xE000 {
					i += 6
					continue
				}
			}
			return "the body holds a \\u escape of a lone surrogate"
		case r >= 0xDC00 && r < 0xE000:
			return "the body holds a \\u escape of a lone surrogate"
		}
	}
	return ""
}

// utf16Text is textual's refusal of a write's body (400 InvalidInput), or
// nil. The editor's drafts (DecodeDraft) and answers read from other
// endpoints are not judged: only what would be stored is.
func utf16Text(body []byte) *tableerr.Error {
	if why := textual(body); why != "" {
		return invalidJSON(why)
	}
	return nil
}

// hex4 reads the four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
