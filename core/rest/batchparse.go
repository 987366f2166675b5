package rest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
)

// batchPart is one request inside a $batch envelope.
type batchPart struct {
	req       *http.Request
	body      []byte
	contentID string // from the HTTP request's own headers; echoed in the answer
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

// ParseBatch reads a $batch body with mime/multipart and http.ReadRequest
// (F-BATCH-ENVELOPE): CRLF or LF line endings, absolute or relative sub-request URLs,
// bodies with or without Content-Length, multi-line JSON, Content-ID headers;
// an empty changeset is valid. contentType is the request's Content-Type.
func ParseBatch(contentType string, body []byte) (*batchEnvelope, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errEnvelope
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	part, err := mr.NextPart()
	if err != nil {
		return nil, errEnvelope
	}
	env := &batchEnvelope{}
	pmt, pparams, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
	if err != nil {
		return nil, errEnvelope
	}
	switch {
	case pmt == "multipart/mixed" && pparams["boundary"] != "":
		cs := multipart.NewReader(part, pparams["boundary"])
		br := bufio.NewReader(nil) // one reader for every part's request
		for {
			p, err := cs.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil || len(env.changeset) == maxBatchParts {
				return nil, errEnvelope
			}
			bp, err := readHTTPPart(p, br)
			if err != nil {
				return nil, err
			}
			env.changeset = append(env.changeset, bp)
		}
	case pmt == "application/http":
		bp, err := readHTTPPart(part, bufio.NewReader(nil))
		if err != nil || bp.req.Method != http.MethodGet {
			return nil, errEnvelope
		}
		env.get = &bp
	default:
		return nil, errEnvelope
	}
	// Only one changeset (or one GET) per batch.
	if _, err := mr.NextPart(); err != io.EOF {
		return nil, errEnvelope
	}
	return env, nil
}

// readHTTPPart reads an application/http part: a request line, headers, a
// blank line and the rest as the body (Content-Length is not trusted: SDKs
// omit it or send it with extra blank lines).
func readHTTPPart(p *multipart.Part, br *bufio.Reader) (batchPart, error) {
	if ct := p.Header.Get("Content-Type"); ct != "application/http" { // the form every SDK sends needs no parsing
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/http" {
			return batchPart{}, errEnvelope
		}
	}
	raw, err := io.ReadAll(io.LimitReader(p, MaxBody+1))
	if err != nil || len(raw) > MaxBody {
		return batchPart{}, errEnvelope
	}
	// A body-less part may end right after its last header: the blank line
	// before the boundary belongs to the delimiter. Supply one; trailing
	// whitespace is trimmed from bodies anyway.
	raw = append(raw, "\r\n\r\n"...)
	rd := bytes.NewReader(raw)
	br.Reset(rd) // the previous part is read to its end
	req, err := http.ReadRequest(br)
	if err != nil {
		return batchPart{}, errEnvelope
	}
	// ReadRequest stops at the blank line when no length is given: the rest
	// is the body, read into a buffer of its size.
	rest := make([]byte, br.Buffered()+rd.Len())
	n, _ := io.ReadFull(br, rest)
	rest = rest[:n]
	if req.ContentLength > 0 {
		b, _ := io.ReadAll(req.Body)
		rest = append(b, rest...)
	}
	return batchPart{req: req, body: bytes.TrimSpace(rest), contentID: strings.TrimSpace(req.Header.Get("Content-ID"))}, nil
}
