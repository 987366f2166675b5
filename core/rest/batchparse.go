package rest

import (
	"bytes"
	"errors"
	"strings"

	"github.com/tableplay/tableplay/core/wire"
)

// batchPart is one request inside a $batch envelope. Its header block is
// checked when the envelope is read but kept as text (head) and read into
// a map only when the part is decoded (readHead), into one map that every
// part of the batch shares: req.Header is nil until then.
type batchPart struct {
	req       Request
	head      []byte // the header block, its blank line included when it has one
	headText  string // head as a string (a substring of the envelope's copy)
	contentID string // from the HTTP request's own headers; echoed in the answer
}

// readHead reads the part's header block into h (cleared) and sets it as
// the request's header. The block was read once already, when the envelope
// was, so it cannot fail here but by a bug.
func (p *batchPart) readHead(h Header, pool *wire.ValuePool) bool {
	h, _, err := wire.ReadHeaderInto(h, p.head, p.headText, pool)
	if err != nil && !wire.Unterminated(err) {
		return false
	}
	p.req.Header = h
	return true
}

// batchEnvelope is a parsed $batch body: either one changeset of writes or a
// single GET outside any changeset (the form the docs give for awkward keys).
type batchEnvelope struct {
	changeset []batchPart
	get       *batchPart
}

// errEnvelope is a $batch body that is not a well-formed envelope.
var errEnvelope = errors.New("malformed batch envelope")

// maxBatchParts bounds the parts read from one envelope; the service's own
// limit of 100 operations is reported by the store with its index.
const maxBatchParts = 1000

// ParseBatch reads a $batch body (F-BATCH-ENVELOPE): CRLF or LF line
// endings, absolute or relative sub-request URLs, bodies with or without
// Content-Length, multi-line JSON, Content-ID headers; an empty changeset is
// valid. contentType is the request's Content-Type. The parts' bodies are
// slices of body.
func ParseBatch(contentType string, body []byte) (*batchEnvelope, error) {
	return parseBatchText(contentType, body, "")
}

// parseBatchText is ParseBatch for a body also held as text (text ==
// string(body)), or "" to have the body copied into a string.
func parseBatchText(contentType string, body []byte, text string) (*batchEnvelope, error) {
	mt, params, ok := parseMediaType(contentType)
	if !ok || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errEnvelope
	}
	// One copy of the body as a string: the parts' header values and request
	// lines are substrings of it instead of copies of their own.
	if len(text) != len(body) {
		text = string(body)
	}
	mr := wire.NewTextPartReader(body, text, params["boundary"])
	part, done, err := mr.Next()
	if err != nil || done {
		return nil, errEnvelope
	}
	env := &batchEnvelope{}
	pmt, pparams, ok := parseMediaType(part.Header.Get("Content-Type"))
	if !ok {
		return nil, errEnvelope
	}
	switch {
	case pmt == "multipart/mixed" && pparams["boundary"] != "":
		var urls partScratch
		cs := wire.NewTextPartReader(part.Body, part.Text, pparams["boundary"])
		cs.ReuseHeader() // a part's MIME header is read at once (readHTTPPart) and not kept
		for {
			p, done, err := cs.Next()
			if done {
				break
			}
			if err != nil || len(env.changeset) == maxBatchParts {
				return nil, errEnvelope
			}
			if env.changeset == nil {
				// An SDK's insert part is over 512 bytes (its request line,
				// five headers and the entity); smaller parts grow the slice.
				env.changeset = make([]batchPart, 0, min(len(part.Body)/512+1, maxBatchParts))
			}
			bp, err := readHTTPPart(p, &urls, cap(env.changeset)-len(env.changeset))
			if err != nil {
				return nil, err
			}
			env.changeset = append(env.changeset, bp)
		}
	case pmt == "application/http":
		var urls partScratch
		bp, err := readHTTPPart(part, &urls, 1)
		if err != nil || bp.req.Method != "GET" {
			return nil, errEnvelope
		}
		env.get = &bp
	default:
		return nil, errEnvelope
	}
	// Only one changeset (or one GET) per batch.
	if _, done, err := mr.Next(); err != nil || !done {
		return nil, errEnvelope
	}
	return env, nil
}

// partScratch is what the parts of one envelope share: chunks of URLs, and
// the map and values each part's header block is checked in (the part
// keeps the block, read again when it is decoded).
type partScratch struct {
	targetURLs
	values wire.ValuePool
	header Header
}

// readHTTPPart reads an application/http part: a request line, headers, a
// blank line and the rest as the body, without its surrounding white space
// (Content-Length is checked but not trusted: SDKs omit it or send it with
// extra blank lines). A body-less part may end right after its request line
// or its last header: the blank line before the boundary belongs to the
// delimiter.
func readHTTPPart(p wire.Part, urls *partScratch, hint int) (batchPart, error) {
	if ct := p.Header.Get("Content-Type"); ct != "application/http" { // the form every SDK sends needs no parsing
		if mt, _, ok := parseMediaType(ct); !ok || mt != "application/http" {
			return batchPart{}, errEnvelope
		}
	}
	raw := p.Body
	if len(raw) > MaxBody {
		return batchPart{}, errEnvelope
	}
	line, rest, err := wire.ReadRequestLineText(raw, p.Text)
	if err != nil {
		return batchPart{}, errEnvelope
	}
	var restText string
	if len(p.Text) == len(raw) {
		restText = p.Text[len(raw)-len(rest):]
	}
	if urls.header == nil {
		urls.header = make(Header, 8)
	}
	urls.values.Rewind()
	h, body, err := wire.ReadHeaderInto(urls.header, rest, restText, &urls.values)
	if err != nil {
		if !wire.Unterminated(err) {
			return batchPart{}, errEnvelope
		}
		body = raw[len(raw):]
	}
	if !transferOK(h, line.Proto) {
		return batchPart{}, errEnvelope
	}
	u, err := urls.parse(line.Target, hint)
	if err != nil {
		return batchPart{}, errEnvelope
	}
	head := rest[:len(rest)-len(body)]
	headText := ""
	if restText != "" {
		headText = restText[:len(head)]
	}
	return batchPart{req: Request{Method: line.Method, URL: u, Host: u.Host, Body: bytes.TrimSpace(body), ContentLength: -1},
		head: head, headText: headText,
		contentID: strings.TrimSpace(first(h["Content-Id"]))}, nil // the canonical key, which Get would build anew
}

// transferOK checks a part's framing fields as an HTTP/1.1 reader does: a
// Transfer-Encoding (from HTTP/1.1 on) must be chunked alone, and
// otherwise a Content-Length must be a count, the same in every copy.
func transferOK(h Header, proto string) bool {
	if te, ok := h["Transfer-Encoding"]; ok && proto >= "HTTP/1.1" {
		return len(te) == 1 && strings.EqualFold(te[0], "chunked")
	}
	_, err := wire.ContentLength(h)
	return err == nil
}

// first returns a field's first value, "" when it has none.
func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}
