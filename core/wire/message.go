package wire

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
)

// ErrMalformed is text that is not a well-formed message, part or header
// block.
var ErrMalformed = errors.New("wire: malformed message")

// errUnterminated is a header block cut off by the end of its text before
// its blank line (every line before being well formed).
var errUnterminated = errors.New("wire: header block without its blank line")

// MaxHeaders bounds the fields of one header block. The blocks read here
// are a batch's parts, whose SDKs send fewer than ten fields; a batch holds
// up to a thousand parts, all read before any runs, so this bound is what
// keeps a hostile 4 MiB batch from costing hundreds of megabytes.
const MaxHeaders = 100

// nextLine splits b at its first line feed: the line without its line
// ending (LF or CRLF) and what follows; ok is false when b holds no line
// feed (the line then runs to the end of b).
func nextLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	line, rest = b[:i], b[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest, true
}

// ReadHeader reads a header block from the start of b up to and including
// its blank line, and returns the fields and what follows the block. Keys
// are canonical; values lose the blanks around them; a line starting with a
// blank continues the field before it (joined by one space). A block that
// does not end in a blank line (errUnterminated), a line without a colon, a
// bad byte in a name or a value, or more than MaxHeaders fields is
// ErrMalformed (MaxHeaders counts lines, folded ones included). The values
// are substrings of one copy of the block, and
// single values share one slice, so a block costs a few allocations
// whatever its length.
func ReadHeader(b []byte) (Header, []byte, error) { return readHeader(b, "", false, nil, nil) }

// ReadHeaderText is ReadHeader for b whose bytes the caller also holds as a
// string, text (string(b) == text): the values are substrings of text, and
// the block is not copied. The value slices come from pool, which may be
// nil.
func ReadHeaderText(b []byte, text string, pool *ValuePool) (Header, []byte, error) {
	if len(text) != len(b) {
		return readHeader(b, "", false, pool, nil)
	}
	return readHeader(b, text, true, pool, nil)
}

// ValuePool hands out the value slices of many header blocks from shared
// chunks: one allocation for several blocks instead of one each. The zero
// value is ready.
type ValuePool struct{ chunk, free []string }

// Rewind hands out the current chunk again from its start, for a caller
// that reads a block only to check it and no longer uses the values of the
// blocks read before.
func (p *ValuePool) Rewind() { p.free = p.chunk }

// valuePoolChunk is the values a chunk holds: the header blocks of a few
// batch parts.
const valuePoolChunk = 64

func (p *ValuePool) take(n int) []string {
	if p == nil || n > valuePoolChunk {
		return make([]string, n)
	}
	if len(p.free) < n {
		p.chunk = make([]string, valuePoolChunk)
		p.free = p.chunk
	}
	s := p.free[:n:n]
	p.free = p.free[n:]
	return s
}

// readHeader reads into reuse, cleared, when it is not nil, and into a new
// map otherwise.
func readHeader(b []byte, src string, haveSrc bool, pool *ValuePool, reuse Header) (Header, []byte, error) {
	return readHeaderLines(b, src, haveSrc, pool, reuse, nil)
}

// readHeaderLines is readHeader that also records the block's lines into
// *lines (a HeaderCache's) when it is simple: every name once, nothing
// folded; *lines is nil otherwise.
func readHeaderLines(b []byte, src string, haveSrc bool, pool *ValuePool, reuse Header, lines *[]cacheLine) (Header, []byte, error) {
	if lines != nil {
		*lines = (*lines)[:0]
	}
	n, end, terminated, err := blockExtent(b)
	if err != nil {
		return nil, nil, err
	}
	var text string
	if haveSrc {
		text = src[:end]
	} else {
		text = string(b[:end])
	}
	strs := pool.take(n)
	h := reuse
	if h != nil {
		clear(h)
	} else {
		// Sized for distinct names, which repeated lines of one name do not add.
		h = make(Header, min(n, 16))
	}
	fields, simple := 0, lines != nil
	for rest := text; ; {
		name, value, next, ok, err := nextField(rest)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if lines != nil && (!simple || !terminated) {
				*lines = (*lines)[:0]
			}
			if !terminated {
				return h, nil, errUnterminated // with the fields read so far
			}
			return h, b[end:], nil
		}
		field := rest[:len(rest)-len(next)] // its line, or lines when folded
		rest = next
		key, valid := fieldName(name)
		if !valid {
			return nil, nil, ErrMalformed
		}
		if vs, seen := h[key]; seen {
			h[key] = append(vs, value)
			simple = false
		} else {
			strs[fields] = value
			h[key] = strs[fields : fields+1 : fields+1]
		}
		if simple {
			line, after, _ := nextLineString(field)
			if after != "" {
				simple = false // folded
			} else {
				*lines = append(*lines, cacheLine{text: line, name: len(name), key: key, value: h[key]})
			}
		}
		fields++
	}
}

// readField reads a header block as readHeader does, errors included, but
// keeps only the first value of one field, key in canonical form ("" when
// the block has none): a caller that needs one field of a block (a batch
// part's Content-Type) builds no map.
func readField(b []byte, src string, haveSrc bool, key string) (string, []byte, error) {
	_, end, terminated, err := blockExtent(b)
	if err != nil {
		return "", nil, err
	}
	var text string
	if haveSrc {
		text = src[:end]
	} else {
		text = string(b[:end])
	}
	value, found := "", false
	for rest := text; ; {
		name, v, next, ok, err := nextField(rest)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			if !terminated {
				return value, nil, errUnterminated
			}
			return value, b[end:], nil
		}
		rest = next
		space, _, valid := checkName(name)
		if !valid {
			return "", nil, ErrMalformed
		}
		// A name with a space is kept as written (fieldName), so it is never
		// the canonical key; any other matches it whatever its case.
		if !found && !space && strings.EqualFold(name, key) {
			value, found = v, true
		}
	}
}

// blockExtent measures the header block at the start of b before anything
// is copied: its lines (folded ones included, and a last line without its
// ending), where it ends (after its blank line, or at the end of b) and
// whether a blank line ends it. A block that starts with a blank, or has
// more than MaxHeaders lines, is ErrMalformed.
func blockExtent(b []byte) (n, end int, terminated bool, err error) {
	if len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		return 0, 0, false, ErrMalformed
	}
	for rest := b; ; n++ {
		line, next, ok := nextLine(rest)
		if len(line) == 0 && ok {
			terminated = true
			end = len(b) - len(next)
			break
		}
		if !ok {
			if len(line) > 0 {
				n++ // a last line without its ending is a field too
			}
			end = len(b)
			break
		}
		rest = next
	}
	if n > MaxHeaders {
		return 0, 0, false, ErrMalformed
	}
	return n, end, terminated, nil
}

// nextField reads the field at the start of rest, a header block's text
// measured by blockExtent: its name as written (unchecked) and its value
// without the blanks around it, continuation lines (obsolete folding)
// joined with a space; ok is false at the block's end. A line without a
// colon or a value with a bad byte is ErrMalformed.
func nextField(rest string) (name, value, after string, ok bool, err error) {
	line, rest, _ := nextLineString(rest)
	if len(line) == 0 {
		return "", "", "", false, nil
	}
	colon := strings.IndexByte(line, ':')
	if colon < 0 {
		return "", "", "", false, ErrMalformed
	}
	name, value = line[:colon], line[colon+1:]
	if len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
		joined := []byte(TrimBlanks(value))
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			cont, next, _ := nextLineString(strings.TrimLeft(rest, " \t"))
			joined = append(append(joined, ' '), TrimBlanks(cont)...)
			rest = next
		}
		value = strings.TrimLeft(string(joined), " \t") // as folded; a blank continuation leaves its space
	} else {
		value = TrimBlanks(value)
	}
	if !ValidValue(value) {
		return "", "", "", false, ErrMalformed
	}
	return name, value, rest, true, nil
}

// nextLineString is nextLine for a string.
func nextLineString(s string) (line, rest string, ok bool) {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return s, "", false
	}
	line, rest = s[:i], s[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest, true
}

// trimSpaceString drops spaces and tabs at both ends.
func TrimBlanks(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// fieldName returns a field name in canonical form; a name with a space is
// kept as it is (HTTP/1.1 readers accept it, without canonicalizing), any
// other byte outside a token refuses it.
func fieldName(name string) (string, bool) {
	space, canonical, valid := checkName(name)
	switch {
	case !valid:
		return "", false
	case space || canonical:
		return name, true
	}
	return CanonicalKey(name), true
}

// checkName reports whether name is a field name fieldName accepts (token
// bytes and spaces, not empty), whether it holds a space, and whether it
// is in canonical case already.
func checkName(name string) (space, canonical, valid bool) {
	if name == "" {
		return false, false, false
	}
	canonical, upper := true, true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == ' ':
			space = true
		case !TokenByte(c):
			return false, false, false
		case upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z':
			canonical = false
		}
		upper = c == '-'
	}
	return space, canonical, true
}

// RequestLine is an HTTP/1.1 request line: method, target and protocol.
type RequestLine struct {
	// Method is the method token, such as "POST".
	Method string
	// Target is the request target as written: a path with its query, or an
	// absolute URL.
	Target string
	// Proto is the protocol version, such as "HTTP/1.1".
	Proto string
}

// ReadRequestLine reads "METHOD target HTTP/x.y" from the start of b and
// returns it with what follows its line ending (a line without one runs to
// the end of b).
func ReadRequestLine(b []byte) (RequestLine, []byte, error) { return readRequestLine(b, "", false) }

// ReadRequestLineText is ReadRequestLine for b whose bytes the caller also
// holds as a string, text: the fields are substrings of text, not copies.
func ReadRequestLineText(b []byte, text string) (RequestLine, []byte, error) {
	if len(text) != len(b) {
		return readRequestLine(b, "", false)
	}
	return readRequestLine(b, text, true)
}

func readRequestLine(b []byte, src string, haveSrc bool) (RequestLine, []byte, error) {
	line, rest, _ := nextLine(b)
	var s string
	if haveSrc {
		s = src[:len(line)]
	} else {
		s = string(line)
	}
	method, s, ok1 := strings.Cut(s, " ")
	target, proto, ok2 := strings.Cut(s, " ")
	if !ok1 || !ok2 || !ValidMethod(method) || !validProto(proto) {
		return RequestLine{}, nil, ErrMalformed
	}
	return RequestLine{Method: method, Target: target, Proto: proto}, rest, nil
}

// ReadStatusLine reads "HTTP/x.y code reason" from the start of b and
// returns the code and what follows its line ending.
func ReadStatusLine(b []byte) (int, []byte, error) {
	line, rest, ok := nextLine(b)
	if !ok {
		return 0, nil, ErrMalformed
	}
	proto, status, ok := strings.Cut(string(line), " ")
	code, _, _ := strings.Cut(status, " ")
	if !ok || len(code) != 3 || !validProto(proto) {
		return 0, nil, ErrMalformed
	}
	n, err := strconv.Atoi(code)
	if err != nil || n < 0 {
		return 0, nil, ErrMalformed
	}
	return n, rest, nil
}

// ValidMethod reports whether m can be an HTTP method (a token).
func ValidMethod(m string) bool {
	if m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		if !TokenByte(m[i]) {
			return false
		}
	}
	return true
}

// validProto accepts HTTP/d.d.
func validProto(p string) bool {
	return len(p) == 8 && strings.HasPrefix(p, "HTTP/") && isDigit(p[5]) && p[6] == '.' && isDigit(p[7])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ContentLength reads a Content-Length field: -1 when absent; ErrMalformed
// when it is not a count, or when several values disagree.
func ContentLength(h Header) (int64, error) {
	vs := h["Content-Length"]
	if len(vs) == 0 {
		return -1, nil
	}
	first := strings.TrimSpace(vs[0])
	for _, v := range vs[1:] {
		if strings.TrimSpace(v) != first {
			return 0, ErrMalformed
		}
	}
	n, err := strconv.ParseUint(first, 10, 63)
	if err != nil {
		return 0, ErrMalformed
	}
	return int64(n), nil
}

// Unterminated reports whether err is ReadHeader's for a header block that
// the end of its text cut off before its blank line.
func Unterminated(err error) bool { return err == errUnterminated }
