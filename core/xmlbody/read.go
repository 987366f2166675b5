package xmlbody

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The reader below takes the two XML documents the service reads (a
// table's access policies and the service properties) with the rules of
// Go's encoding/xml in its strict mode, which they were read with before:
// the same documents are accepted, with the same values. It is written
// here so that the browser build does not link encoding/xml; a fuzz target
// holds it to encoding/xml. One difference is chosen: a name with
// characters beyond ASCII is judged by the rule of XML 1.0's fifth edition
// (what the live service's parser follows), not by the older tables of
// encoding/xml.

// handler receives the elements inside the root, each with its path of
// local names below the root. open says whether the element's own text
// (its character data, not its children's) is wanted; close then gets it
// and reports whether the value is acceptable.
type handler interface {
	open(path [][]byte) (wantText bool)
	close(path [][]byte, text []byte) bool
}

// readDoc walks the first element of doc, which must be named root (any
// prefix), and reports whether the document is well formed up to that
// element's end and every close accepted its text. What follows the root
// element is not read.
func readDoc(doc []byte, root string, h handler) bool {
	s := scanner{b: doc}
	var (
		names   [][]byte // raw names of the open elements, the root first
		path    [][]byte // their local names below the root
		collect = -1     // depth of the element whose text is wanted
		text    []byte
	)
	for {
		switch s.next() {
		case tokEOF, tokError:
			return false
		case tokText:
			if collect >= 0 && collect == len(names) {
				text = append(text, s.text...)
			}
		case tokStart:
			local := localName(s.name)
			if len(names) == 0 {
				if string(local) != root {
					return false
				}
			} else {
				path = append(path, local)
				if h.open(path) {
					collect, text = len(names)+1, text[:0]
				}
			}
			names = append(names, s.name)
		case tokEnd:
			if len(names) == 0 || !bytes.Equal(names[len(names)-1], s.name) {
				return false
			}
			if len(names) == 1 {
				return true
			}
			if collect == len(names) {
				if !h.close(path, text) {
					return false
				}
				collect = -1
			}
			names, path = names[:len(names)-1], path[:len(path)-1]
		}
	}
}

// localName is a name's part after its prefix: "p:x" is x, while a name
// with an empty side (":x", "x:") is all local, as in encoding/xml.
func localName(name []byte) []byte {
	if p, l, ok := bytes.Cut(name, []byte(":")); ok && len(p) > 0 && len(l) > 0 {
		return l
	}
	return name
}

type token int

const (
	tokEOF token = iota
	tokError
	tokStart // name is set
	tokEnd   // name is set
	tokText  // text holds the decoded character data
	tokOther // a comment, processing instruction or directive
)

// scanner cuts a document into tokens, in constant memory besides the
// current token.
type scanner struct {
	b        []byte
	i        int
	name     []byte // a slice of b
	text     []byte
	closeTag bool // the last start tag closed itself: its end comes next
}

func (s *scanner) next() token {
	if s.closeTag {
		s.closeTag = false
		return tokEnd
	}
	if s.i >= len(s.b) {
		return tokEOF
	}
	if s.b[s.i] != '<' {
		return s.charData(-1, false)
	}
	s.i++
	c, ok := s.byte()
	if !ok {
		return tokError
	}
	switch c {
	case '/':
		name, ok := s.qname()
		if !ok {
			return tokError
		}
		s.space()
		if c, ok := s.byte(); !ok || c != '>' {
			return tokError
		}
		s.name = name
		return tokEnd
	case '?':
		return s.procInst()
	case '!':
		return s.bang()
	}
	s.i--
	name, ok := s.qname()
	if !ok {
		return tokError
	}
	for {
		s.space()
		c, ok := s.byte()
		if !ok {
			return tokError
		}
		if c == '/' {
			if c, ok := s.byte(); !ok || c != '>' {
				return tokError
			}
			s.closeTag = true
			break
		}
		if c == '>' {
			break
		}
		s.i--
		if _, ok := s.qname(); !ok {
			return tokError
		}
		s.space()
		if c, ok := s.byte(); !ok || c != '=' {
			return tokError
		}
		s.space()
		q, ok := s.byte()
		if !ok || q != '"' && q != '\'' {
			return tokError
		}
		if s.charData(int(q), false) == tokError {
			return tokError
		}
	}
	s.name = name
	return tokStart
}

// byte reads one byte; false at the end.
func (s *scanner) byte() (byte, bool) {
	if s.i >= len(s.b) {
		return 0, false
	}
	s.i++
	return s.b[s.i-1], true
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\r' || s.b[s.i] == '\n' || s.b[s.i] == '\t') {
		s.i++
	}
}

// rawName reads the bytes a name may hold: ASCII name characters and any
// byte beyond ASCII (checked after).
func (s *scanner) rawName() []byte {
	start := s.i
	for s.i < len(s.b) && (s.b[s.i] >= utf8.RuneSelf || isNameByte(s.b[s.i])) {
		s.i++
	}
	return s.b[start:s.i]
}

// qname reads an element or attribute name: a valid name with at most one
// colon.
func (s *scanner) qname() ([]byte, bool) {
	n := s.rawName()
	if !isName(n) || bytes.Count(n, []byte(":")) > 1 {
		return nil, false
	}
	return n, true
}

// procInst reads <?target ...?>; the XML declaration may only declare
// version 1.0 and the UTF-8 encoding.
func (s *scanner) procInst() token {
	target := s.rawName()
	if !isName(target) {
		return tokError
	}
	s.space()
	end := bytes.Index(s.b[s.i:], []byte("?>"))
	if end < 0 {
		return tokError
	}
	body := string(s.b[s.i : s.i+end])
	s.i += end + 2
	if string(target) == "xml" {
		if v := declParam(body, "version"); v != "" && v != "1.0" {
			return tokError
		}
		if e := declParam(body, "encoding"); e != "" && !strings.EqualFold(e, "utf-8") {
			return tokError
		}
	}
	return tokOther
}

// declParam finds name= followed by a quoted value in a declaration, as
// loosely as encoding/xml does: the first occurrence of name= that is
// followed by a quote, and the text up to the next such quote.
func declParam(s, name string) string {
	key := name + "="
	i := 0
	var quote byte
	for i < len(s) {
		k := strings.Index(s[i:], key)
		if k < 0 || i+k+len(key) >= len(s) {
			return ""
		}
		c := s[i+k+len(key)]
		i += k + len(key) + 1
		if c == '\'' || c == '"' {
			quote = c
			break
		}
	}
	if quote == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], quote)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// bang reads what starts with <!: a comment, a CDATA section or a
// directive (<!DOCTYPE ...>), which the documents do not use but may hold.
func (s *scanner) bang() token {
	c, ok := s.byte()
	if !ok {
		return tokError
	}
	switch c {
	case '-':
		if c, ok := s.byte(); !ok || c != '-' {
			return tokError
		}
		// A comment ends at its first "--", which must be "-->".
		k := bytes.Index(s.b[s.i:], []byte("--"))
		if k < 0 || s.i+k+2 >= len(s.b) || s.b[s.i+k+2] != '>' {
			return tokError
		}
		s.i += k + 3
		return tokOther
	case '[':
		if !bytes.HasPrefix(s.b[s.i:], []byte("CDATA[")) {
			return tokError
		}
		s.i += len("CDATA[")
		return s.charData(-1, true)
	}
	return s.directive()
}

// directive skips a directive: up to the '>' that closes it, past quoted
// text, nested <...> and comments. A '<' that does not start a comment
// opens a level, and the byte after it is read again as markup.
func (s *scanner) directive() token {
	var quote byte
	depth := 0
	for {
		c, ok := s.byte()
		if !ok {
			return tokError
		}
		if quote == 0 && c == '>' && depth == 0 {
			return tokOther
		}
	again:
		switch {
		case c == quote:
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
		case c == '>':
			depth--
		case c == '<':
			for _, want := range []byte("!--") {
				if c, ok = s.byte(); !ok {
					return tokError
				}
				if c != want {
					depth++
					goto again
				}
			}
			k := bytes.Index(s.b[s.i:], []byte("-->"))
			if k < 0 {
				return tokError
			}
			s.i += k + 3
		}
	}
}

// charData reads character data up to '<' (quote < 0, not cdata), up to
// the closing quote of an attribute value (quote ≥ 0) or up to "]]>"
// (cdata), decoding references, turning CR LF and CR into LF, and checking
// that every character is one XML allows.
func (s *scanner) charData(quote int, cdata bool) token {
	out := s.text[:0]
	// The text is at most the bytes before the next '<' (CDATA aside): sized
	// once, not grown step by step through a long text.
	n := bytes.IndexByte(s.b[s.i:], '<')
	if n < 0 {
		n = len(s.b) - s.i
	}
	if n > cap(out) {
		out = make([]byte, 0, n)
	}
	var b0, b1 byte
	trunc := 0
	for {
		c, ok := s.byte()
		if !ok {
			if cdata {
				return tokError
			}
			break
		}
		if quote < 0 && b0 == ']' && b1 == ']' && c == '>' {
			if !cdata {
				return tokError
			}
			trunc = 2
			break
		}
		if c == '<' && !cdata {
			if quote >= 0 {
				return tokError
			}
			s.i--
			break
		}
		if quote >= 0 && c == byte(quote) {
			break
		}
		if c == '&' && !cdata {
			var ok bool
			if out, ok = s.reference(out); !ok {
				return tokError
			}
			b0, b1 = 0, 0
			continue
		}
		switch {
		case c == '\r':
			out = append(out, '\n')
		case b1 == '\r' && c == '\n': // the LF of CR LF: already written
		default:
			out = append(out, c)
		}
		b0, b1 = b1, c
	}
	out = out[:len(out)-trunc]
	s.text = out
	for len(out) > 0 {
		r, n := utf8.DecodeRune(out)
		if r == utf8.RuneError && n == 1 || !isChar(r) {
			return tokError
		}
		out = out[n:]
	}
	return tokText
}

// entities are the five references XML predefines.
var entities = [...]struct {
	name string
	r    byte
}{{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"apos", '\''}, {"quot", '"'}}

// reference decodes the reference after an '&' into out: &#N; or &#xH;
// (any code point up to U+10FFFF; one not allowed fails the text later) or
// a predefined entity.
func (s *scanner) reference(out []byte) ([]byte, bool) {
	if s.i < len(s.b) && s.b[s.i] == '#' {
		s.i++
		base := 10
		if s.i < len(s.b) && s.b[s.i] == 'x' {
			base = 16
			s.i++
		}
		start := s.i
		for s.i < len(s.b) && isDigitIn(s.b[s.i], base) {
			s.i++
		}
		digits := string(s.b[start:s.i])
		if s.i >= len(s.b) || s.b[s.i] != ';' {
			return out, false
		}
		s.i++
		n, err := strconv.ParseUint(digits, base, 64)
		if err != nil || n > utf8.MaxRune {
			return out, false
		}
		return utf8.AppendRune(out, rune(n)), true
	}
	name := s.rawName()
	if s.i >= len(s.b) || s.b[s.i] != ';' {
		return out, false
	}
	s.i++
	for _, e := range entities {
		if string(name) == e.name {
			return append(out, e.r), true
		}
	}
	return out, false
}

func isDigitIn(c byte, base int) bool {
	return '0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
}

// isChar reports whether XML 1.0 allows r in a document.
func isChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}

// isName checks a name by XML 1.0's NameStartChar and NameChar.
func isName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !isNameStart(r) && (i == 0 || !isNameRest(r)) {
			return false
		}
		i += n
	}
	return true
}

func isNameStart(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || r == '_' || r == ':'
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

func isNameRest(r rune) bool {
	return '0' <= r && r <= '9' || r == '-' || r == '.' || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}
