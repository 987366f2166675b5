package wire

import (
	"bytes"
)

// Part is one body part of a multipart message: its header block and its
// content, a slice of the message's bytes.
type Part struct {
	// Header holds the part's header fields by canonical key.
	Header Header
	// Body is the part's content, not copied from the message.
	Body []byte
	// Text is Body as a string when the reader was given the message's
	// text (NewTextPartReader), "" otherwise.
	Text string
	// ContentType is the first Content-Type value of a reader in
	// ContentTypeOnly mode ("" when the part has none), "" otherwise.
	ContentType string
}

// PartReader reads the body parts of a multipart body held in memory, as
// RFC 2046 frames them: a preamble, "--boundary" lines (optionally followed
// by blanks) before each part, "--boundary--" after the last. Lines may end
// in CRLF or, when the first delimiter line does, in LF alone.
type PartReader struct {
	rest     []byte
	size     int    // the body's length, which places rest in text
	text     string // the body as a string, or ""
	hasText  bool
	values   ValuePool // the text reader's header values
	dash     []byte    // "--boundary"
	nl       []byte    // the line ending: CRLF, or LF
	delim    []byte    // CRLF and dash: nl and dash end to end
	parts    int
	finished bool
	broken   bool // a part ran to the end of the body without its delimiter
	typeOnly bool // ContentTypeOnly
	// lastHead is the last header block read in ContentTypeOnly mode, with
	// its blank line, and lastType its Content-Type: a block the next part
	// repeats byte for byte (a batch's parts mostly do) is not read again.
	lastHead []byte
	lastType string
}

// ContentTypeOnly makes the parts Next returns from now on carry their
// Content-Type (Part.ContentType) instead of a Header: each part's header
// block is still checked as ReadHeader checks it, but no map is built. A
// caller that needs only that field of each part (a batch of a hundred
// parts) saves a map's work per part.
func (r *PartReader) ContentTypeOnly() { r.typeOnly = true }

// Remaining is the length of the body not read yet.
func (r *PartReader) Remaining() int { return len(r.rest) }

// NewPartReader returns a reader of body's parts delimited by boundary.
func NewPartReader(body []byte, boundary string) *PartReader {
	// One allocation holds the line ending, the boundary line and both.
	delim := []byte("\r\n--" + boundary)
	return &PartReader{rest: body, size: len(body), delim: delim, dash: delim[2:], nl: delim[:2]}
}

// NewTextPartReader is NewPartReader for a body the caller also holds as a
// string (string(body) == text): the parts' header values and Text are
// substrings of text, so reading a part copies nothing.
func NewTextPartReader(body []byte, text, boundary string) *PartReader {
	r := NewPartReader(body, boundary)
	r.text, r.hasText = text, len(text) == len(body)
	return r
}

// Next returns the next part; done is true (with no error) once the closing
// delimiter was read. Text that does not frame parts is ErrMalformed,
// including a body that ends without its closing delimiter. A part cut off
// by the end of the body is still returned, as Go's reader lets its bytes be
// read (less a tail that could begin a delimiter); the call after it fails.
func (r *PartReader) Next() (p Part, done bool, err error) {
	if r.finished {
		return Part{}, true, nil
	}
	if r.broken {
		return Part{}, false, ErrMalformed
	}
	if len(r.dash) == 2 {
		return Part{}, false, ErrMalformed // an empty boundary
	}
	expectPart := false
	for {
		i := bytes.IndexByte(r.rest, '\n')
		if i < 0 {
			// The last line, without a line ending, may only close.
			if r.isClose(r.rest, true) {
				r.finished = true
				return Part{}, true, nil
			}
			return Part{}, false, ErrMalformed
		}
		line := r.rest[:i+1]
		r.rest = r.rest[i+1:]
		if r.isDelimiter(line) {
			r.parts++
			return r.part()
		}
		if r.isClose(line, false) {
			r.finished = true
			return Part{}, true, nil
		}
		switch {
		case expectPart:
			return Part{}, false, ErrMalformed
		case r.parts == 0:
			continue // the preamble
		case bytes.Equal(line, r.nl):
			expectPart = true // the line ending before a delimiter
		default:
			return Part{}, false, ErrMalformed
		}
	}
}

// part reads a part's header block and its content, up to the line ending
// before the next delimiter.
func (r *PartReader) part() (Part, bool, error) {
	var src string
	if r.hasText {
		src = r.text[r.size-len(r.rest):]
	}
	var (
		p    Part
		rest []byte
		err  error
	)
	switch {
	case r.typeOnly && len(r.lastHead) > 0 && bytes.HasPrefix(r.rest, r.lastHead):
		// The same bytes up to and including a blank line are the same
		// block: its first blank line is where the last one's was.
		p.ContentType, rest = r.lastType, r.rest[len(r.lastHead):]
	case r.typeOnly:
		p.ContentType, rest, err = readField(r.rest, src, r.hasText, "Content-Type")
		r.lastHead, r.lastType = nil, ""
		if err == nil {
			r.lastHead, r.lastType = r.rest[:len(r.rest)-len(rest)], p.ContentType
		}
	default:
		var pool *ValuePool
		if r.hasText {
			pool = &r.values
		}
		p.Header, rest, err = readHeader(r.rest, src, r.hasText, pool, nil)
	}
	if err == errUnterminated {
		// A body that ends inside a part's header block ends the parts, as
		// Go's reader has it.
		r.finished = true
		return Part{}, true, nil
	}
	if err != nil {
		return Part{}, false, err
	}
	end, ok := r.contentEnd(rest)
	if !ok {
		r.broken = true
	}
	p.Body = rest[:end]
	if r.hasText {
		at := r.size - len(rest)
		p.Text = r.text[at : at+end]
	}
	r.rest = rest[end:]
	return p, false, nil
}

// contentEnd finds where a part's content ends: at a delimiter at its very
// start, or at the line ending before "--boundary" followed by a blank, a
// line ending or "--" (the boundary followed by anything else is content).
// Without a delimiter, ok is false and the content ends before a tail of b
// that could begin one.
func (r *PartReader) contentEnd(b []byte) (end int, ok bool) {
	if bytes.HasPrefix(b, r.dash) && delimiterFollows(b[len(r.dash):]) {
		return 0, true
	}
	nlDash := r.delim[2-len(r.nl):]
	from := 0
	for {
		i := bytes.Index(b[from:], nlDash)
		if i < 0 {
			return r.beforePartialDelimiter(b, nlDash), false
		}
		at := from + i
		if delimiterFollows(b[at+len(nlDash):]) {
			return at, true
		}
		from = at + 1
	}
}

// beforePartialDelimiter is where the content of a part cut off by the end
// of the body ends: all of b, less a tail that is the start of a delimiter.
func (r *PartReader) beforePartialDelimiter(b, nlDash []byte) int {
	if bytes.HasPrefix(r.dash, b) {
		return 0
	}
	if i := bytes.LastIndexByte(b, nlDash[0]); i >= 0 && bytes.HasPrefix(nlDash, b[i:]) {
		return i
	}
	return len(b)
}

// delimiterFollows reports whether what follows "--boundary" makes it a
// delimiter: the end of the body, a blank, a line ending or "--".
func delimiterFollows(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	switch b[0] {
	case ' ', '\t', '\r', '\n':
		return true
	case '-':
		return len(b) > 1 && b[1] == '-'
	}
	return false
}

// isDelimiter reports whether line (with its line feed) is "--boundary",
// blanks, and the line ending. On the first one an LF alone switches the
// reader to LF line endings.
func (r *PartReader) isDelimiter(line []byte) bool {
	if !bytes.HasPrefix(line, r.dash) {
		return false
	}
	rest := bytes.TrimLeft(line[len(r.dash):], " \t")
	if r.parts == 0 && len(rest) == 1 && rest[0] == '\n' {
		r.nl = r.nl[1:]
	}
	return bytes.Equal(rest, r.nl)
}

// isClose reports whether line is "--boundary--", blanks, and the line
// ending (or nothing, at the end of the body).
func (r *PartReader) isClose(line []byte, last bool) bool {
	if !bytes.HasPrefix(line, r.dash) || !bytes.HasPrefix(line[len(r.dash):], []byte("--")) {
		return false
	}
	rest := bytes.TrimLeft(line[len(r.dash)+2:], " \t")
	return len(rest) == 0 && last || bytes.Equal(rest, r.nl)
}

// PartWriter appends a multipart body to a byte slice, laid out as Go's and
// the Azure SDKs' writers lay it out: "--boundary", the part's header lines
// and a blank line before each part, CRLF before every delimiter after the
// first, "--boundary--" and CRLF at the end.
type PartWriter struct {
	// B is the body written so far; a part's content is appended to it
	// directly, after Part.
	B []byte
	// Boundary is the delimiter text, without the leading "--".
	Boundary string
	started  bool
}

// Part starts a part with the given header fields, in that order.
func (w *PartWriter) Part(fields ...[2]string) {
	if w.started {
		w.B = append(w.B, "\r\n"...)
	}
	w.started = true
	w.B = append(w.B, "--"...)
	w.B = append(w.B, w.Boundary...)
	w.B = append(w.B, "\r\n"...)
	for _, f := range fields {
		w.B = AppendField(w.B, f[0], f[1])
	}
	w.B = append(w.B, "\r\n"...)
}

// Close writes the closing delimiter.
func (w *PartWriter) Close() {
	if w.started {
		w.B = append(w.B, "\r\n"...)
	}
	w.B = append(w.B, "--"...)
	w.B = append(w.B, w.Boundary...)
	w.B = append(w.B, "--\r\n"...)
}

// AppendField appends the header line "name: value" and CRLF.
func AppendField(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, ": "...)
	b = append(b, value...)
	return append(b, "\r\n"...)
}
