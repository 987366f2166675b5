package filter

import (
	"unicode"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
)

// tokenKind classifies a token.
type tokenKind uint8

const (
	tEOF tokenKind = iota
	tLParen
	tRParen
	tIdent   // a property name
	tLiteral // a constant, see edm.ScanLiteral
	tNull
	tAnd
	tOr
	tNot
	tOp // eq ne gt ge lt le
)

// token is one lexeme with its byte span in the filter text.
type token struct {
	kind       tokenKind
	start, end int
	text       string
	value      edm.Value // for tLiteral
	op         Op        // for tOp
}

// lexer is a synchronous pull lexer over the filter text.
type lexer struct {
	src string
	pos int
}

// keyword returns the kind of a reserved word (lowercase only, as on the
// service).
func keyword(word string) (tokenKind, bool) {
	switch word {
	case "and":
		return tAnd, true
	case "or":
		return tOr, true
	case "not":
		return tNot, true
	case "null":
		return tNull, true
	}
	return 0, false
}

// next returns the next token or panics with a syntax error.
func (l *lexer) next() token {
	for l.pos < len(l.src) && isSpace(l.src[l.pos]) {
		l.pos++
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tEOF, start: start, end: start}
	}
	c := l.src[l.pos]
	switch {
	case c == '(':
		l.pos++
		return token{kind: tLParen, start: start, end: l.pos, text: "("}
	case c == ')':
		l.pos++
		return token{kind: tRParen, start: start, end: l.pos, text: ")"}
	case c == '\'' || isDigit(c) || c == '-' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		return l.literal(start)
	}
	r, size := utf8.DecodeRuneInString(l.src[l.pos:])
	if !isIdentStart(r) {
		l.pos += size
		panic(syntaxAt(start, l.pos))
	}
	end := l.pos + size
	for end < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[end:])
		if !isIdentPart(r) {
			break
		}
		end += size
	}
	word := l.src[start:end]
	if end < len(l.src) && l.src[end] == '\'' {
		switch word {
		case "datetime", "guid", "X", "x", "binary":
			return l.literal(start)
		}
	}
	l.pos = end
	if word == "true" || word == "false" {
		v, _ := edm.ParseLiteral(word)
		return token{kind: tLiteral, start: start, end: end, text: word, value: v}
	}
	if k, ok := keyword(word); ok {
		return token{kind: k, start: start, end: end, text: word}
	}
	if op, ok := parseOp(word); ok {
		return token{kind: tOp, start: start, end: end, text: word, op: op}
	}
	return token{kind: tIdent, start: start, end: end, text: word}
}

// literal scans a constant and checks that it ends where a token may end.
func (l *lexer) literal(start int) token {
	v, n, err := edm.ScanLiteral(l.src[start:])
	if err != nil {
		panic(syntaxAt(start, l.tokenEnd(start)))
	}
	end := start + n
	if end < len(l.src) {
		if r, _ := utf8.DecodeRuneInString(l.src[end:]); isIdentPart(r) || r == '\'' {
			panic(syntaxAt(end, end+1))
		}
	}
	l.pos = end
	return token{kind: tLiteral, start: start, end: end, text: l.src[start:end], value: v}
}

// tokenEnd finds where a malformed constant ends: at the next delimiter
// outside quotes, or at the end of the text if a quote is never closed.
func (l *lexer) tokenEnd(start int) int {
	quoted := false
	for i := start; i < len(l.src); i++ {
		c := l.src[i]
		switch {
		case c == '\'':
			quoted = !quoted
		case !quoted && (isSpace(c) || c == '(' || c == ')'):
			if i == start {
				return i + 1
			}
			return i
		}
	}
	return len(l.src)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') || r >= utf8.RuneSelf && unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || r >= '0' && r <= '9' ||
		r >= utf8.RuneSelf && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Cf, unicode.Nl)
}
