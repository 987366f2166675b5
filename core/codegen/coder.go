package codegen

import "strings"

// coder accumulates indented lines of a brace language.
type coder struct {
	indent string
	depth  int
	b      strings.Builder
}

// line writes one line at the current depth (an empty line stays empty).
func (c *coder) line(s string) {
	if s != "" {
		c.b.WriteString(strings.Repeat(c.indent, c.depth))
		c.b.WriteString(s)
	}
	c.b.WriteByte('\n')
}

// open writes a line that opens a block.
func (c *coder) open(s string) {
	c.line(s)
	c.depth++
}

// close ends a block with its closing line.
func (c *coder) close(s string) {
	c.depth--
	c.line(s)
}

// String is the code written so far.
func (c *coder) String() string { return c.b.String() }
