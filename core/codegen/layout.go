package codegen

import (
	"math"
	"strings"
	"unicode/utf8"
)

// layoutGo lays out the Go this package writes exactly as gofmt would:
// indentation by nesting, key: value columns in composite literals and
// trailing comments aligned. It knows only the shapes goSource writes (one
// statement or element per line, no multi-line expressions); go/format
// itself would add about 1 MB to the browser's engine. A test holds it equal
// to go/format on every generated program.
func layoutGo(src string) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	type line struct {
		depth         int
		code, comment string // comment: "// …" or ""
		key           string // "key:" of a single-line composite element, or ""
		literal       bool   // inside a composite literal
	}
	var ls []line
	depth := 0
	var literal []bool // per open brace: does it open a composite literal?
	for _, raw := range lines {
		text := strings.TrimLeft(raw, " \t")
		code, comment := splitComment(text)
		code = strings.TrimRight(code, " \t")
		closers := leadingClosers(code)
		d := max(depth-closers, 0)
		l := line{depth: d, code: code, comment: comment, literal: len(literal) > 0 && literal[len(literal)-1]}
		opens, closes, lastOpenLiteral := nesting(code)
		if l.literal && opens == closes {
			l.key = keyOf(code)
		}
		ls = append(ls, l)
		for i := 0; i < closes-opens && len(literal) > 0; i++ {
			literal = literal[:len(literal)-1]
		}
		for i := 0; i < opens-closes; i++ {
			literal = append(literal, lastOpenLiteral)
		}
		depth += opens - closes
	}

	// Alignment sections, as go/printer cuts them: consecutive key: value
	// elements of one literal, broken where an element is not one line or
	// where a key's size is far from the geometric mean of the keys before.
	keyWidth := make([]int, len(ls)) // the key column's width, 0: no alignment
	section := make([]int, len(ls))  // which key section a line is in, 0: none
	for i := 0; i < len(ls); {
		if ls[i].key == "" {
			i++
			continue
		}
		start, lnsum, count := i, 0.0, 0
		j := i
		for ; j < len(ls) && ls[j].key != "" && ls[j].depth == ls[start].depth; j++ {
			size := len(ls[j].key) - 1 // the key without its colon
			if j > start {
				prev := len(ls[j-1].key) - 1
				if !(prev <= 40 && size <= 40) {
					geomean := math.Exp(lnsum / float64(count))
					ratio := float64(size) / geomean
					if 2.5*ratio <= 1 || 2.5 <= ratio {
						break
					}
				}
			}
			lnsum += math.Log(float64(size))
			count++
		}
		width := 0
		for k := start; k < j; k++ {
			width = max(width, utf8.RuneCountInString(ls[k].key))
		}
		for k := start; k < j; k++ {
			keyWidth[k], section[k] = width, start+1
		}
		i = j
	}
	texts := make([]string, len(ls))
	for i, l := range ls {
		t := l.code
		if keyWidth[i] > 0 {
			value := strings.TrimLeft(t[len(l.key):], " ")
			t = l.key + strings.Repeat(" ", keyWidth[i]+1-utf8.RuneCountInString(l.key)) + value
		}
		texts[i] = t
	}
	// Trailing comments on consecutive lines of one depth and one key section
	// (or none) share a column.
	var b strings.Builder
	for i := 0; i < len(ls); {
		j := i + 1
		if ls[i].comment != "" && ls[i].code != "" {
			for j < len(ls) && ls[j].comment != "" && ls[j].code != "" && ls[j].depth == ls[i].depth && section[j] == section[i] {
				j++
			}
		}
		width := 0
		for k := i; k < j; k++ {
			width = max(width, utf8.RuneCountInString(texts[k]))
		}
		for k := i; k < j; k++ {
			l := ls[k]
			if l.code != "" || l.comment != "" {
				b.WriteString(strings.Repeat("\t", l.depth))
			}
			switch {
			case l.code == "" && l.comment == "":
			case l.code == "":
				b.WriteString(l.comment)
			case l.comment == "":
				b.WriteString(texts[k])
			default:
				b.WriteString(texts[k] + strings.Repeat(" ", width+1-utf8.RuneCountInString(texts[k])) + l.comment)
			}
			b.WriteString("\n")
		}
		i = j
	}
	return collapseBlankLines(b.String())
}

// splitComment cuts a line at a trailing // comment outside string and rune
// literals.
func splitComment(s string) (code, comment string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipQuoted(s, i)
		case '`':
			if k := strings.IndexByte(s[i+1:], '`'); k >= 0 {
				i += k + 1
			}
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				return s[:i], s[i:]
			}
		}
	}
	return s, ""
}

// skipQuoted returns the index of the quote closing the literal opened at i.
func skipQuoted(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return i
}

// nesting counts the brackets a line opens and closes outside literals, and
// whether its last unclosed '{' opens a composite literal (a type before it,
// not a statement's block).
func nesting(code string) (opens, closes int, literal bool) {
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"', '\'':
			i = skipQuoted(code, i)
		case '`':
			if k := strings.IndexByte(code[i+1:], '`'); k >= 0 {
				i += k + 1
			}
		case '{', '(', '[':
			opens++
			if c == '{' {
				literal = isLiteralBrace(code[:i])
			}
		case '}', ')', ']':
			closes++
		}
	}
	return opens, closes, literal
}

// isLiteralBrace reports whether a '{' after before opens a composite
// literal: statement blocks follow a keyword's clause (if, for, func, else,
// switch) or stand alone.
func isLiteralBrace(before string) bool {
	t := strings.TrimSpace(before)
	if t == "" {
		return false
	}
	for _, kw := range []string{"if ", "for ", "func ", "else", "switch ", "} else"} {
		if strings.HasPrefix(t, kw) {
			return false
		}
	}
	return true
}

// leadingClosers counts the closing brackets a line starts with.
func leadingClosers(code string) int {
	n := 0
	for n < len(code) && strings.IndexByte("})]", code[n]) >= 0 {
		n++
	}
	return n
}

// keyOf returns "key:" when code is a key: value element, else "".
func keyOf(code string) string {
	if code == "" || !strings.HasSuffix(code, ",") {
		return ""
	}
	end := 0
	if code[0] == '"' {
		end = skipQuoted(code, 0) + 1
	} else {
		for end < len(code) && (code[end] == '_' || code[end] == '.' || code[end] >= 'a' && code[end] <= 'z' || code[end] >= 'A' && code[end] <= 'Z' || code[end] >= '0' && code[end] <= '9') {
			end++
		}
	}
	if end == 0 || end >= len(code) || code[end] != ':' || end+1 < len(code) && code[end+1] == '=' {
		return ""
	}
	return code[:end+1]
}

// collapseBlankLines keeps at most one blank line in a row, as gofmt does.
func collapseBlankLines(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}
