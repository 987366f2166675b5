package odata

import (
	"strings"
	"unicode/utf8"

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
	var buf [maxSimpleMembers]simpleProp
	var notesBuf [maxSimpleMembers]simpleNote
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
			key, next, flags, ok := scanString(s, i)
			if !ok {
				return d, false
			}
			i = skipSpace(s, next)
			if i == len(s) || s[i] != ':' {
				return d, false
			}
			i = skipSpace(s, i+1)
			kind, text, next, vflags, ok := scanValue(s, i)
			if !ok {
				return d, false
			}
			i = skipSpace(s, next)
			name := key
			if flags&nonASCII != 0 && !utf8.ValidString(key) {
				return d, false // the full decoder refuses it (F-KEY-UTF8)
			}
			at := -1
			if flags&hasAt != 0 {
				at = strings.IndexByte(name, '@')
			}
			if at >= 0 && strings.HasPrefix(name[at+1:], "odata.") {
				if name[at:] == annotationSuffix {
					if kind != edm.JSONString || len(notes) == maxSimpleMembers {
						return d, false // null or not a string
					}
					notes = append(notes, simpleNote{name: name[:at], text: text})
				}
			} else if !strings.HasPrefix(name, "odata.") {
				if len(props) == maxSimpleMembers {
					return d, false
				}
				if vflags&nonASCII != 0 && !utf8.ValidString(text) {
					return d, false
				}
				props = append(props, simpleProp{name: name, text: text, kind: kind})
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
	// Each annotation must name a property, once; it types every member
	// of that name (a repeated name is Check's to refuse).
	for j := range notes {
		n := &notes[j]
		for _, o := range notes[:j] {
			if o.name == n.name {
				return d, false
			}
		}
		found := false
		for k := range props {
			if props[k].name == n.name {
				props[k].typeName = n.text
				found = true
			}
		}
		if !found {
			return d, false
		}
	}
	if space != nil && cap(space) >= len(props) {
		d.Fields = space[:len(props)] // the caller's, zeroed
	} else {
		d.Fields = make([]entity.Field, len(props))
	}
	for j := range props {
		p := &props[j]
		f := &d.Fields[j]
		f.Name = p.name
		switch {
		case p.kind == 0:
			f.Null = true
		case p.typeName == "" && p.kind == edm.JSONString:
			f.Value = edm.StringValue(p.text) // as edm.FromJSON reads it, without the call
		default:
			f.Value, f.Err = fromJSON(p.kind, p.text, p.typeName)
		}
	}
	return d, true
}

// simpleProp is a property decodeSimple took: its value's kind (0 for
// null), text and type annotation.
type simpleProp struct {
	name, text, typeName string
	kind                 edm.JSONKind
}

// simpleNote is a type annotation decodeSimple took: the property it names
// and the type.
type simpleNote struct {
	name, text string
}

// Flags scanString and scanValue report about a string's bytes.
const (
	nonASCII = 1 << iota // a byte of 0x80 or more: the text may need validUTF8
	hasAt                // an '@': the name may be an annotation
)

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

// scanString reads a string at s[i] that needs no unescaping: its text,
// the index after its closing quote and what flags its bytes raise.
func scanString(s string, i int) (text string, next int, flags uint8, ok bool) {
	if i == len(s) || s[i] != '"' {
		return "", 0, 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch stringBytes[s[j]] {
		case plainByte:
		case quoteByte:
			return s[i+1 : j], j + 1, flags, true
		case atByte:
			flags |= hasAt
		case highByte:
			flags |= nonASCII
		default: // an escape or a control character
			return "", 0, 0, false
		}
	}
	return "", 0, 0, false
}

// The classes of a byte inside a JSON string, for scanString: one table
// look-up a byte rather than a comparison for each class.
const (
	plainByte = iota
	quoteByte
	atByte
	highByte
	refusedByte
)

var stringBytes = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '"':
			t[c] = quoteByte
		case c == '@':
			t[c] = atByte
		case c >= 0x80:
			t[c] = highByte
		case c == '\\' || c < 0x20:
			t[c] = refusedByte
		}
	}
	return t
}()

// scanValue reads a string, number, true, false or null (kind 0) at s[i];
// flags are a string's, as scanString reports them.
func scanValue(s string, i int) (kind edm.JSONKind, text string, next int, flags uint8, ok bool) {
	if i == len(s) {
		return 0, "", 0, 0, false
	}
	switch c := s[i]; {
	case c == '"':
		text, next, flags, ok := scanString(s, i)
		return edm.JSONString, text, next, flags, ok
	case c == 't' && strings.HasPrefix(s[i:], "true"):
		return edm.JSONBool, s[i : i+4], i + 4, 0, true
	case c == 'f' && strings.HasPrefix(s[i:], "false"):
		return edm.JSONBool, s[i : i+5], i + 5, 0, true
	case c == 'n' && strings.HasPrefix(s[i:], "null"):
		return 0, "", i + 4, 0, true
	case c == '-' || c >= '0' && c <= '9':
		end, ok := scanNumber(s, i)
		if !ok {
			return 0, "", 0, 0, false
		}
		return edm.JSONNumber, s[i:end], end, 0, true
	}
	return 0, "", 0, 0, false
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
