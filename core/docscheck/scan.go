package docscheck

import (
	"bytes"
	"errors"
	"fmt"
	"html"
)

// Bounds on what one file may hold, so that a hostile or runaway file costs
// bounded work: the scan is linear in the file's size.
const (
	// MaxFile is the largest file scanned.
	MaxFile = 8 << 20
	// MaxExamples is the most elements read from one file.
	MaxExamples = 1000
	// MaxAttributes is the most attributes read from one element.
	MaxAttributes = 64
)

// Example is one <table-playground> element as written in a file.
type Example struct {
	// Line is the 1-based line of the element's opening tag.
	Line int
	// Attrs are its attributes, names in lower case, values with character
	// references decoded; a boolean attribute has the value "".
	Attrs map[string]string
	// Inline is the text of its inline start state as the browser reads
	// it: a child <template>'s text (character references decoded), else
	// a child <script type="application/json">'s (raw). A state attribute,
	// which web/embed.js prefers to both, is in Attrs.
	Inline string
	// HasInline says whether such a child is present.
	HasInline bool
	// InlineFrom names that child for messages.
	InlineFrom string
}

// Attr returns an attribute's value and whether it is present.
func (e Example) Attr(name string) (string, bool) {
	v, ok := e.Attrs[name]
	return v, ok
}

const (
	openTag  = "<table-playground"
	closeTag = "</table-playground"
)

// Scan finds the <table-playground> elements of a Markdown or HTML file, in
// order. An element without a closing tag (a mention in running text, say)
// has no inline start state. Scan fails only for a file beyond the bounds or
// an opening tag that never ends.
func Scan(text []byte) ([]Example, error) {
	if len(text) > MaxFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxFile)
	}
	lower := asciiLower(text)
	var out []Example
	line, counted := 1, 0
	closeAt := 0 // the next closing tag's offset; -2 when there is none
	for pos := 0; ; {
		i := bytes.Index(lower[pos:], []byte(openTag))
		if i < 0 {
			return out, nil
		}
		start := pos + i
		after := start + len(openTag)
		if after < len(text) && !isSpace(text[after]) && text[after] != '>' && text[after] != '/' {
			pos = after // <table-playground-x> is another element
			continue
		}
		line += bytes.Count(text[counted:start], []byte("\n"))
		counted = start
		if len(out) == MaxExamples {
			return nil, fmt.Errorf("line %d: more than %d examples in one file", line, MaxExamples)
		}
		attrs, end, err := readAttrs(text, after)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		ex := Example{Line: line, Attrs: attrs}
		pos = end
		// The element's content runs to its closing tag, unless another
		// element opens first (this one was never closed).
		// The next closing tag is found once and kept while it lies ahead,
		// so that many unclosed elements cost one pass, not one each.
		if closeAt != -2 && closeAt < end {
			closeAt = -2
			if c := bytes.Index(lower[end:], []byte(closeTag)); c >= 0 {
				closeAt = end + c
			}
		}
		if closeAt >= end && bytes.Index(lower[end:closeAt], []byte(openTag)) < 0 {
			if t, ok := inlineTemplate(text[end:closeAt], lower[end:closeAt]); ok {
				ex.Inline, ex.HasInline, ex.InlineFrom = t, true, "its <template>"
			} else if t, ok := inlineScript(text[end:closeAt], lower[end:closeAt]); ok {
				ex.Inline, ex.HasInline, ex.InlineFrom = t, true, `its <script type="application/json">`
			}
			pos = closeAt + len(closeTag)
		}
		out = append(out, ex)
	}
}

// readAttrs reads the attributes of a tag from just after its name to its
// '>', as HTML does: names up to whitespace, '=', '>' or '/'; values quoted
// with " or ', or unquoted up to whitespace or '>'. It returns the offset
// after the '>'.
func readAttrs(text []byte, i int) (map[string]string, int, error) {
	attrs := map[string]string{}
	for {
		for i < len(text) && (isSpace(text[i]) || text[i] == '/') {
			i++
		}
		if i >= len(text) {
			return nil, 0, errors.New("the <table-playground> tag is never closed with '>'")
		}
		if text[i] == '>' {
			return attrs, i + 1, nil
		}
		n := i
		for i < len(text) && !isSpace(text[i]) && text[i] != '=' && text[i] != '>' && text[i] != '/' {
			i++
		}
		if i == n { // a lone '=': skip it as a browser does
			i++
			continue
		}
		name := string(asciiLower(text[n:i]))
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		value := ""
		if i < len(text) && text[i] == '=' {
			i++
			for i < len(text) && isSpace(text[i]) {
				i++
			}
			if i < len(text) && (text[i] == '"' || text[i] == '\'') {
				q := text[i]
				e := bytes.IndexByte(text[i+1:], q)
				if e < 0 {
					return nil, 0, fmt.Errorf("the value of %s is never closed with %c", name, q)
				}
				value = string(text[i+1 : i+1+e])
				i += e + 2
			} else {
				v := i
				for i < len(text) && !isSpace(text[i]) && text[i] != '>' {
					i++
				}
				value = string(text[v:i])
			}
		}
		if _, seen := attrs[name]; seen {
			continue // the first of a repeated attribute wins, as in HTML
		}
		if len(attrs) == MaxAttributes {
			return nil, 0, fmt.Errorf("more than %d attributes", MaxAttributes)
		}
		attrs[name] = html.UnescapeString(value)
	}
}

// inlineScript finds the first child <script type="application/json"> of
// an element's content and returns its text (script text is raw: no
// character references are decoded).
func inlineScript(content, lower []byte) (string, bool) {
	for pos := 0; ; {
		i := bytes.Index(lower[pos:], []byte("<script"))
		if i < 0 {
			return "", false
		}
		attrs, end, err := readAttrs(content, pos+i+len("<script"))
		if err != nil {
			return "", false
		}
		e := bytes.Index(lower[end:], []byte("</script"))
		if e < 0 {
			return "", false
		}
		if t, ok := attrs["type"]; ok && string(asciiLower([]byte(t))) == "application/json" {
			return string(content[end : end+e]), true
		}
		pos = end + e
	}
}

// inlineTemplate finds the first child <template> of an element's content
// and returns its text with character references decoded (a template's
// content is parsed as HTML, unlike a script's).
func inlineTemplate(content, lower []byte) (string, bool) {
	i := bytes.Index(lower, []byte("<template"))
	if i < 0 {
		return "", false
	}
	after := i + len("<template")
	if after < len(content) && !isSpace(content[after]) && content[after] != '>' {
		return "", false
	}
	_, end, err := readAttrs(content, after)
	if err != nil {
		return "", false
	}
	e := bytes.Index(lower[end:], []byte("</template"))
	if e < 0 {
		return "", false
	}
	return html.UnescapeString(string(content[end : end+e])), true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// asciiLower lowers ASCII letters only, so that offsets in the copy are
// offsets in the original.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
