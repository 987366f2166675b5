package wire

import "bytes"

// HeaderCache reads a run of header blocks (the parts of a batch) one
// after another into one map, reusing what it read of the block before: a
// block equal to it byte for byte is not read again, and one that differs
// from it only in the values of some fields (the same lines up to each
// colon, in the same order, each name once, nothing folded) has only those
// values read. Either way the map, and any error, are what ReadHeader
// gives; the map and its values are valid until the next Read. The zero
// value is ready.
type HeaderCache struct {
	h    Header
	pool ValuePool
	// block is the last block read, with its blank line (nil when it had
	// none, or failed); lines are its lines when it is simple, else empty.
	block []byte
	lines []cacheLine
}

// cacheLine is one line of a simple header block.
type cacheLine struct {
	text  string   // as written, without its line ending
	name  int      // the length of the name before the colon
	key   string   // the name in canonical form
	value []string // the map's slice of the field's one value
}

// Change says how a block read by HeaderCache.Read differs from the block
// read before it.
type Change int

// The changes Read reports: the same block again; the same block but for
// the values of some fields; or a block read anew.
const (
	Same Change = iota
	Values
	Anew
)

// Read reads the header block at the start of b (text: b as a string, or
// "") and returns the map, what follows the block, and how the block
// differs from the last one read. changed holds the canonical names of the
// fields whose values changed (Values only); it is valid until the next
// Read.
func (c *HeaderCache) Read(b []byte, text string, changed []string) (h Header, rest []byte, how Change, keys []string, err error) {
	if len(c.block) > 0 && bytes.HasPrefix(b, c.block) {
		// The same bytes up to and including a blank line are the same
		// block: its first blank line is where the last one's was.
		return c.h, b[len(c.block):], Same, changed[:0], nil
	}
	if len(c.lines) > 0 {
		if rest, keys, ok, err := c.readValues(b, text, changed[:0]); ok || err != nil {
			if err != nil {
				c.block, c.lines = nil, c.lines[:0]
				return nil, nil, Anew, changed[:0], err
			}
			return c.h, rest, Values, keys, nil
		}
	}
	if c.h == nil {
		// Sized for an SDK's part: a handful of fields.
		c.h, c.lines = make(Header, 8), make([]cacheLine, 0, 8)
	}
	c.block = nil
	c.pool.Rewind() // the values of the blocks before are no longer used
	haveSrc := len(text) == len(b)
	if !haveSrc {
		text = ""
	}
	h, rest, err = readHeaderLines(b, text, haveSrc, &c.pool, c.h, &c.lines)
	switch {
	case err == nil:
		c.block = b[:len(b)-len(rest)]
	case err != errUnterminated:
		c.lines = c.lines[:0]
	}
	return h, rest, Anew, changed[:0], err
}

// readValues reads b as the last block with some values changed: ok is
// false, with nothing changed, when b is not such a block (then it is read
// in full); err is ErrMalformed when a changed value has a byte a value
// may not hold, as ReadHeader finds.
func (c *HeaderCache) readValues(b []byte, text string, keys []string) (rest []byte, changed []string, ok bool, err error) {
	haveSrc := len(text) == len(b)
	// First the lines are matched, then the values are set, so that a
	// block that does not match leaves the map as it is.
	at := 0
	for i := range c.lines {
		l := &c.lines[i]
		line, ok := lineAt(b, at)
		if !ok || len(line) == 0 || line[0] == ' ' || line[0] == '\t' || len(line) <= l.name ||
			string(line[:l.name+1]) != l.text[:l.name+1] {
			return nil, nil, false, nil
		}
		at += len(line)
		at += lineEnding(b[at:])
	}
	// The block must end where the last one did: a blank line, and no
	// continuation of its last field.
	blank, ok := lineAt(b, at)
	if !ok || len(blank) != 0 {
		return nil, nil, false, nil
	}
	end := at + lineEnding(b[at:])
	at = 0
	for i := range c.lines {
		l := &c.lines[i]
		line, _ := lineAt(b, at)
		if string(line) != l.text {
			raw := line[l.name+1:]
			var v string
			if haveSrc {
				v = text[at+l.name+1 : at+len(line)]
			} else {
				v = string(raw)
			}
			v = TrimBlanks(v)
			if !ValidValue(v) {
				return nil, nil, false, ErrMalformed
			}
			if haveSrc {
				l.text = text[at : at+len(line)]
			} else {
				l.text = string(line)
			}
			if v != l.value[0] {
				l.value[0] = v
				keys = append(keys, l.key)
			}
		}
		at += len(line)
		at += lineEnding(b[at:])
	}
	c.block = b[:end]
	return b[end:], keys, true, nil
}

// lineAt returns the line of b starting at at, without its line ending
// (LF or CRLF); ok is false when no line feed ends it.
func lineAt(b []byte, at int) ([]byte, bool) {
	line, _, ok := nextLine(b[at:])
	return line, ok
}

// lineEnding is the length of the line ending that ends the line at the
// start of b (whose line feed is known to be there): the line's own
// length is counted by the caller.
func lineEnding(b []byte) int {
	if len(b) > 0 && b[0] == '\r' {
		return 2
	}
	return 1
}
