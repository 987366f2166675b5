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

// MaxHeaders bounds the fields of one header block.
const MaxHeaders = 10000

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

// trimSpace drops spaces and tabs at both ends.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// ReadHeader reads a header block from the start of b up to and including
// its blank line, and returns the fields and what follows the block. Keys
// are canonical; values lose the blanks around them; a line starting with a
// blank continues the field before it (joined by one space). A block that
// does not end in a blank line (errUnterminated), a line without a colon, a bad byte in a
// name or a value, or more than MaxHeaders fields is ErrMalformed.
func ReadHeader(b []byte) (Header, []byte, error) {
	var h Header
	if len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		return nil, nil, ErrMalformed
	}
	n := 0
	for {
		line, rest, ok := nextLine(b)
		if len(line) == 0 {
			if !ok {
				return h, nil, errUnterminated // with the fields read so far
			}
			if h == nil {
				h = Header{}
			}
			return h, rest, nil
		}
		b = rest
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return nil, nil, ErrMalformed
		}
		name, value := line[:colon], line[colon+1:]
		// Continuation lines (obsolete folding) join the value with a space.
		var joined []byte
		for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
			if joined == nil {
				joined = append(joined, trimSpace(value)...)
			}
			cont, rest, _ := nextLine(bytes.TrimLeft(b, " \t"))
			joined = append(append(joined, ' '), trimSpace(cont)...)
			b = rest
		}
		if joined == nil {
			value = trimSpace(value)
		} else {
			value = bytes.TrimLeft(joined, " \t") // as folded; a blank continuation leaves its space
		}
		key, ok := fieldName(name)
		if !ok {
			return nil, nil, ErrMalformed
		}
		for _, c := range value {
			if !valueByte(c) {
				return nil, nil, ErrMalformed
			}
		}
		if n++; n > MaxHeaders {
			return nil, nil, ErrMalformed
		}
		if h == nil {
			h = make(Header, 8)
		}
		h[key] = append(h[key], string(value))
	}
}

// fieldName returns a field name in canonical form; a name with a space is
// kept as it is (HTTP/1.1 readers accept it, without canonicalizing), any
// other byte outside a token refuses it.
func fieldName(b []byte) (string, bool) {
	if len(b) == 0 {
		return "", false
	}
	space := false
	for _, c := range b {
		switch {
		case TokenByte(c):
		case c == ' ':
			space = true
		default:
			return "", false
		}
	}
	if space {
		return string(b), true
	}
	return CanonicalKey(string(b)), true
}

// RequestLine is an HTTP/1.1 request line: method, target and protocol.
type RequestLine struct {
	Method, Target, Proto string
}

// ReadRequestLine reads "METHOD target HTTP/x.y" from the start of b and
// returns it with what follows its line ending (a line without one runs to
// the end of b).
func ReadRequestLine(b []byte) (RequestLine, []byte, error) {
	line, rest, _ := nextLine(b)
	s := string(line)
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
