package filter

import (
	"runtime"
	"strconv"
	"unicode/utf16"

	"github.com/tableplay/tableplay/core/tableerr"
)

// Limits of a filter.
const (
	MaxComparisons = 15 // discrete comparisons per filter (F-FILTER-FORMS)
	MaxDepth       = 32 // nesting of parentheses and "not"
)

// syntaxError is raised inside the parser and turned into the service's
// message at the top; start and at are byte offsets of the offending token's
// first byte and of the byte just after it.
type syntaxError struct{ start, at int }

func syntaxAt(start, at int) syntaxError { return syntaxError{start, at} }

// semanticError carries a non-syntax rejection (F-FILTER-FORMS) out of the parser.
type semanticError struct{ err *tableerr.Error }

// parser holds one token of lookahead.
type parser struct {
	lex         lexer
	tok         token
	depth       int
	comparisons int
}

// Parse reads a $filter expression. Errors are the service's:
//   - a syntax error: 400 InvalidInput "Syntax error at position N in '<filter>'."
//     where N is the character offset just after the offending token;
//   - a comparison of two constants or two properties: 501 NotImplemented;
//   - a comparison with null, more than 15 comparisons, or nesting deeper
//     than MaxDepth: 400 InvalidInput.
func Parse(text string) (Node, *tableerr.Error) {
	n, err, _ := ParsePosition(text)
	return n, err
}

// ParsePosition is Parse that also returns, for a syntax error, the
// position the message names (UTF-16 units just after the offending token;
// -1 for other errors), so an editor can mark it.
func ParsePosition(text string) (n Node, err *tableerr.Error, pos int) {
	n, err, s := ParseSpan(text)
	return n, err, s.End
}

// Span is where a syntax error lies, in UTF-16 units counted from 0: the
// offending token runs from Start up to (not including) End, and End is the
// position the service's message names. Both are -1 for other errors.
type Span struct {
	// Start is where the offending token begins.
	Start int `json:"start"`
	// End is just past the token: the position the service's message gives.
	End int `json:"end"`
}

// ParseSpan is Parse that also returns the span of the offending token of a
// syntax error, so a page can mark it and say what it was.
func ParseSpan(text string) (n Node, err *tableerr.Error, span Span) {
	span = Span{-1, -1}
	defer func() {
		r := recover()
		switch e := r.(type) {
		case nil:
		case syntaxError:
			span = Span{charOffset(text, min(e.start, e.at)), charOffset(text, e.at)}
			n, err = nil, tableerr.WithMessage(tableerr.InvalidInput,
				"Syntax error at position "+strconv.Itoa(span.End)+" in '"+text+"'.")
		case semanticError:
			n, err = nil, e.err
		case runtime.Error:
			panic(e)
		default:
			panic(r)
		}
	}()
	p := &parser{lex: lexer{src: text}}
	p.advance()
	n = p.expr()
	if p.tok.kind != tEOF {
		panic(syntaxAt(p.tok.start, p.tok.end))
	}
	return n, nil, span
}

// charOffset converts a byte offset into UTF-16 code units, the unit of the
// service's positions.
func charOffset(s string, at int) int {
	if at > len(s) {
		at = len(s)
	}
	n := 0
	for _, r := range s[:at] {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

func (p *parser) advance() { p.tok = p.lex.next() }

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		panic(semanticError{tableerr.New(tableerr.InvalidInput)})
	}
}

// expr := or
func (p *parser) expr() Node { return p.or() }

// or := and ( "or" and )*
func (p *parser) or() Node {
	n := p.and()
	for p.tok.kind == tOr {
		p.advance()
		n = &Or{L: n, R: p.and()}
	}
	return n
}

// and := unary ( "and" unary )*
func (p *parser) and() Node {
	n := p.unary()
	for p.tok.kind == tAnd {
		p.advance()
		n = &And{L: n, R: p.unary()}
	}
	return n
}

// unary := "not" unary | primary
func (p *parser) unary() Node {
	if p.tok.kind == tNot {
		p.enter()
		p.advance()
		n := &Not{X: p.unary()}
		p.depth--
		return n
	}
	return p.primary()
}

// primary := "(" expr ")" | operand op operand | property
// operand := property | literal
func (p *parser) primary() Node {
	switch p.tok.kind {
	case tLParen:
		p.enter()
		p.advance()
		n := p.expr()
		if p.tok.kind != tRParen {
			panic(syntaxAt(p.tok.start, p.tok.end))
		}
		p.advance()
		p.depth--
		return n
	case tIdent, tLiteral, tNull:
	default:
		panic(syntaxAt(p.tok.start, p.tok.end))
	}
	left := p.tok
	p.advance()
	if p.tok.kind != tOp {
		if left.kind != tIdent {
			// A lone constant is a constant expression.
			if left.kind == tNull {
				panic(semanticError{tableerr.New(tableerr.InvalidInput)})
			}
			panic(semanticError{tableerr.New(tableerr.NotImplemented)})
		}
		p.count()
		return &BoolProperty{Name: left.text}
	}
	op := p.tok.op
	p.advance()
	right := p.tok
	switch right.kind {
	case tIdent, tLiteral, tNull:
	default:
		panic(syntaxAt(right.start, right.end))
	}
	p.advance()
	p.count()
	switch {
	case left.kind == tNull || right.kind == tNull:
		panic(semanticError{tableerr.New(tableerr.InvalidInput)}) // F-FILTER-FORMS: no null comparisons
	case left.kind == tIdent && right.kind == tLiteral:
		return &Compare{Property: left.text, Op: op, Value: right.value}
	case left.kind == tLiteral && right.kind == tIdent:
		return &Compare{Property: right.text, Op: op.flip(), Value: left.value}
	}
	panic(semanticError{tableerr.New(tableerr.NotImplemented)}) // constant vs constant, property vs property
}

func (p *parser) count() {
	p.comparisons++
	if p.comparisons > MaxComparisons {
		panic(semanticError{tableerr.New(tableerr.InvalidInput)})
	}
}
