package odata

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// maxSimpleMembers bounds the members decodeSimple takes on; a larger body
// goes to the full decoder.
const maxSimpleMembers = 32

// maxSimpleBody bounds the bodies decodeSimple copies; a larger one goes
// straight to the full decoder, so a hostile body is never copied for a
// pass that would give up on it.
const maxSimpleBody = 64 << 10

// decodeSimple reads the common entity body in one pass, without gjson: one
// flat JSON object whose strings hold no escapes or control characters, every
// annotation a string naming a property present once. Names and texts are
// substrings of s, a copy of the body (see copyForSimple). The fields are read into space when
// it has room. It answers exactly as the full decoder
// would for such a body; ok is false for anything else (escapes, nested
// values, malformed JSON, an annotation problem), which the full decoder
// then reads and, where it must, refuses with its own error. It stays
// within the full decoder's bounds: it never nests (an object or array value
// gives up), takes at most maxSimpleMembers members (far under the property
// limit) and matches annotations among those few, so it is linear in the
// body and cannot reach a case the depth or count checks would refuse.
func decodeSimple(s string, space []entity.Field) (d entity.Draft, ok bool) {
	if len(s) > maxSimpleBody {
		return d, false
	}
	var buf, notesBuf [maxSimpleMembers]member
	props, notes := buf[:0], notesBuf[:0]
	i := skipSpace(s, 0)
	if i == len(s) || s[i] != '{' {
		return d, false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		i++
	} else {
		for {
			key, next, ok := scanString(s, i)
			if !ok {
				return d, false
			}
			i = skipSpace(s, next)
			if i == len(s) || s[i] != ':' {
				return d, false
			}
			i = skipSpace(s, i+1)
			m, next, ok := scanValue(s, i)
			if !ok {
				return d, false
			}
			i = skipSpace(s, next)
			name := validUTF8(key)
			if at := strings.IndexByte(name, '@'); at >= 0 && strings.HasPrefix(name[at+1:], "odata.") {
				if name[at:] == annotationSuffix {
					if m.kind != edm.JSONString || m.null || len(notes) == maxSimpleMembers {
						return d, false
					}
					notes = append(notes, member{name: name[:at], text: m.text})
				}
			} else if !strings.HasPrefix(name, "odata.") {
				if len(props) == maxSimpleMembers {
					return d, false
				}
				if m.kind == edm.JSONString {
					m.text = validUTF8(m.text)
				}
				m.name = name
				props = append(props, m)
			}
			if i == len(s) {
				return d, false
			}
			if s[i] == '}' {
				i++
				break
			}
			if s[i] != ',' {
				return d, false
			}
			i = skipSpace(s, i+1)
		}
	}
	if skipSpace(s, i) != len(s) {
		return d, false
	}
	// Each annotation must name a property, once.
	for j, n := range notes {
		for _, o := range notes[:j] {
			if o.name == n.name {
				return d, false
			}
		}
		found := false
		for _, p := range props {
			if p.name == n.name {
				found = true
				break
			}
		}
		if !found {
			return d, false
		}
	}
	if space != nil && cap(space) >= len(props) {
		d.Fields = space[:len(props)] // a Decoder's, cleared
	} else {
		d.Fields = make([]entity.Field, len(props))
	}
	for j, p := range props {
		typeName := ""
		for _, n := range notes {
			if n.name == p.name {
				typeName = n.text
				break
			}
		}
		d.Fields[j] = p.field(typeName)
	}
	return d, true
}

// copyForSimple is the copy of body that decodeSimple reads, made only for
// a body it may take, so that a hostile body is never copied for a pass
// that would give up on it.
func copyForSimple(body []byte) (string, bool) {
	if len(body) > maxSimpleBody {
		return "", false
	}
	return string(body), true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// scanString reads a string at s[i] that needs no unescaping: its text and
// the index after its closing quote.
func scanString(s string, i int) (text string, next int, ok bool) {
	if i == len(s) || s[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}

// scanValue reads a string, number, true, false or null at s[i].
func scanValue(s string, i int) (m member, next int, ok bool) {
	if i == len(s) {
		return m, 0, false
	}
	switch c := s[i]; {
	case c == '"':
		text, next, ok := scanString(s, i)
		return member{kind: edm.JSONString, text: text}, next, ok
	case c == 't' && strings.HasPrefix(s[i:], "true"):
		return member{kind: edm.JSONBool, text: s[i : i+4]}, i + 4, true
	case c == 'f' && strings.HasPrefix(s[i:], "false"):
		return member{kind: edm.JSONBool, text: s[i : i+5]}, i + 5, true
	case c == 'n' && strings.HasPrefix(s[i:], "null"):
		return member{null: true}, i + 4, true
	case c == '-' || c >= '0' && c <= '9':
		end, ok := scanNumber(s, i)
		if !ok {
			return m, 0, false
		}
		return member{kind: edm.JSONNumber, text: s[i:end]}, end, true
	}
	return m, 0, false
}

// scanNumber reads a number by JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	return i, true
}
