package rest

import (
	"bytes"
	"errors"
	"net/url"
	"strings"

	"github.com/tableplay/tableplay/core/mediatype"
	"github.com/tableplay/tableplay/core/wire"
)

// batchPart is one request inside a $batch envelope. Its header is read
// once, into the map every part of the envelope shares (parseBatchText):
// it is valid only while the part is handed over.
type batchPart struct {
	req       Request
	contentID string // from the HTTP request's own headers; echoed in the answer
	// repeats says the part has the method, target and header block of
	// the part before it, byte for byte but for its Content-Length.
	repeats bool
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
// slices of body; their Header is nil (the handler reads each part's
// header as it decodes the part).
func ParseBatch(contentType string, body []byte) (*batchEnvelope, error) {
	env := &batchEnvelope{}
	get, err := parseBatchText(contentType, body, "", func(p *batchPart, _ int) {
		kept := *p
		kept.req.Header = nil // the map is the next part's
		env.changeset = append(env.changeset, kept)
	})
	if err != nil {
		return nil, err
	}
	if get != nil {
		get.req.Header = nil
		env.get = get
	}
	return env, nil
}

// parseBatchText reads a $batch body also held as text (text ==
// string(body), or "" to have the body copied into a string). Each part of
// a changeset is handed to each as soon as it is read, in order, with an
// estimate of how many parts the changeset holds; the part and its header
// are only valid until each returns (the next part is read into the same
// space). The single-GET form's part is returned instead. An error
// (errEnvelope) may come after parts were handed over: the envelope is
// then malformed, whatever its parts said, and what the caller made of
// them must be dropped.
func parseBatchText(contentType string, body []byte, text string, each func(p *batchPart, parts int)) (*batchPart, error) {
	mt, params, ok := mediatype.Parse(contentType)
	if !ok || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errEnvelope
	}
	// One copy of the body as a string: the parts' header values and request
	// lines are substrings of it instead of copies of their own.
	if len(text) != len(body) {
		text = string(body)
	}
	mr := wire.NewTextPartReader(body, text, params["boundary"])
	mr.ContentTypeOnly()
	part, done, err := mr.Next()
	if err != nil || done {
		return nil, errEnvelope
	}
	pmt, pparams, ok := mediatype.Parse(part.ContentType)
	if !ok {
		return nil, errEnvelope
	}
	var (
		s   partScratch
		get *batchPart
	)
	switch {
	case pmt == "multipart/mixed" && pparams["boundary"] != "":
		cs := wire.NewTextPartReader(part.Body, part.Text, pparams["boundary"])
		cs.ContentTypeOnly() // a part's MIME header is checked, but only its Content-Type is needed
		estimate := 0
		for n := 0; ; n++ {
			p, done, err := cs.Next()
			if done {
				break
			}
			if err != nil || n == maxBatchParts {
				return nil, errEnvelope
			}
			if n == 0 {
				// A batch's parts are mostly alike (an SDK's inserts): the
				// first one's length estimates how many there are.
				first := max(len(part.Body)-cs.Remaining(), 1)
				estimate = min(len(part.Body)/first+1, maxBatchParts)
			}
			if err := s.read(p, max(estimate-n, 1)); err != nil {
				return nil, err
			}
			each(&s.part, max(estimate, n+1))
		}
	case pmt == "application/http":
		if err := s.read(part, 1); err != nil || s.part.req.Method != "GET" {
			return nil, errEnvelope
		}
		g := s.part
		get = &g
	default:
		return nil, errEnvelope
	}
	// Only one changeset (or one GET) per batch.
	if _, done, err := mr.Next(); err != nil || !done {
		return nil, errEnvelope
	}
	return get, nil
}

// partScratch is what the parts of one envelope share: chunks of URLs, the
// cache each part's header block is read through, the part being read,
// and what was read of the part before: a part that repeats its header
// block (or all of it but some values) or its target reuses that reading
// instead of doing it again.
type partScratch struct {
	wire.TargetURLs
	heads   wire.HeaderCache
	changed []string // the fields heads last found changed
	part    batchPart
	// contentID is the last header block's Content-ID; framing says
	// whether its framing fields suit the protocol lastProto.
	contentID string
	lastProto string
	framing   bool
	// lastURL is what lastTarget reads as; lastMethod is the method.
	lastTarget string
	lastURL    *url.URL
	lastMethod string
}

// read reads an application/http part into s.part: a request line,
// headers, a blank line and the rest as the body, without its surrounding
// white space (Content-Length is checked but not trusted: SDKs omit it or
// send it with extra blank lines). A body-less part may end right after its
// request line or its last header: the blank line before the boundary
// belongs to the delimiter. hint is how many more parts may follow, which
// sizes the URLs' chunks.
func (s *partScratch) read(p wire.Part, hint int) error {
	if ct := p.ContentType; ct != "application/http" { // the form every SDK sends needs no parsing
		if mt, _, ok := mediatype.Parse(ct); !ok || mt != "application/http" {
			return errEnvelope
		}
	}
	raw := p.Body
	if len(raw) > MaxBody {
		return errEnvelope
	}
	line, rest, err := wire.ReadRequestLineText(raw, p.Text)
	if err != nil {
		return errEnvelope
	}
	var restText string
	if len(p.Text) == len(raw) {
		restText = p.Text[len(raw)-len(rest):]
	}
	h, body, how, changed, err := s.heads.Read(rest, restText, s.changed)
	s.changed = changed
	if err != nil {
		if !wire.Unterminated(err) {
			return errEnvelope
		}
		body = raw[len(raw):] // a block the end of the part cuts off: no body
	}
	if how != wire.Same || line.Proto != s.lastProto {
		s.framing, s.lastProto = transferOK(h, line.Proto), line.Proto
	}
	if how != wire.Same {
		s.contentID = strings.TrimSpace(first(h["Content-Id"])) // the canonical key, which Get would build anew
	}
	if !s.framing {
		return errEnvelope
	}
	sameURL := s.lastURL != nil && line.Target == s.lastTarget
	if !sameURL {
		u, err := s.Parse(line.Target, hint)
		if err != nil {
			return errEnvelope
		}
		s.lastTarget, s.lastURL = line.Target, u // never written to: the parts may share it
	}
	repeats := sameURL && line.Method == s.lastMethod && (how == wire.Same || how == wire.Values && framingOnly(changed))
	s.lastMethod = line.Method
	u := s.lastURL
	s.part = batchPart{req: Request{Method: line.Method, URL: u, Host: u.Host, Header: h, Body: bytes.TrimSpace(body), ContentLength: -1},
		contentID: s.contentID, repeats: repeats}
	if restText != "" {
		// The body's text, trimmed as its bytes are: the entity decoder
		// then reads it without a copy of its own.
		text := strings.TrimSpace(restText[len(rest)-len(body):])
		if len(text) == len(s.part.req.Body) {
			s.part.req.Text = text
		}
	}
	return nil
}

// framingOnly reports whether the fields named are Content-Length alone:
// a part's framing, which the envelope reads and decoding does not (the
// parts of an SDK's batch differ in it and nothing else).
func framingOnly(keys []string) bool {
	for _, k := range keys {
		if k != "Content-Length" {
			return false
		}
	}
	return true
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
