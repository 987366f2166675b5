package h1

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/wire"
)

// bufferBeforeChunking is net/http's: a body the handler finishes within
// this many bytes is sent with a Content-Length it did not set; a longer
// one without a Content-Length is chunked.
const bufferBeforeChunking = 2048

// maxPostHandlerRead is net/http's: when a handler leaves more of the
// request body unread, the connection is closed after the answer.
const maxPostHandlerRead = 256 << 10

// field is one header field of an answer, as the handler left it.
type field struct {
	key    string
	values []string
}

// response is the rest.ResponseWriter of one request on a connection; it
// frames the answer as net/http's server does (status line, the handler's
// fields sorted by name, then Date, Content-Length, a sniffed Content-Type,
// Connection and Transfer-Encoding when net/http would add them), and puts
// it in the connection's output buffer. One per connection, reset for each
// request.
type response struct {
	c      *conn
	req    *head
	header rest.Header // the handler's fields
	status int
	// wroteHeader: the handler called WriteHeader (or Write); sentHead:
	// the head is in the output; done: the handler returned.
	wroteHeader, sentHead, done bool
	chunking, closeAfter        bool
	// limitHit: the handler left more of the body unread than net/http
	// discards; the connection then closes as net/http closes it.
	limitHit          bool
	declared, written int64 // declared is -1 without a Content-Length
	fields            []field
	buf               *bufio.Writer // net/http's buffer before chunking
}

// reset prepares r for the next request.
func (r *response) reset(req *head) {
	clear(r.header)
	*r = response{c: r.c, req: req, header: r.header, fields: r.fields[:0], buf: r.buf, declared: -1, status: http.StatusOK}
	r.buf.Reset((*chunkWriter)(r))
}

// WriteHeader records the status and the handler's fields as they are now.
func (r *response) WriteHeader(status int) {
	if r.wroteHeader {
		return
	}
	r.wroteHeader, r.status = true, status
	for k, vs := range r.header {
		r.fields = append(r.fields, field{k, vs})
	}
	for i := 1; i < len(r.fields); i++ {
		for j := i; j > 0 && r.fields[j].key < r.fields[j-1].key; j-- {
			r.fields[j], r.fields[j-1] = r.fields[j-1], r.fields[j]
		}
	}
	if cl := r.get("Content-Length"); cl != "" {
		if v, err := strconv.ParseInt(cl, 10, 64); err == nil && v >= 0 {
			r.declared = v
		}
	}
}

// Write takes body bytes; none are kept past the call.
func (r *response) Write(b []byte) (int, error) {
	if !r.wroteHeader {
		r.WriteHeader(http.StatusOK)
	}
	if len(b) == 0 {
		return 0, nil
	}
	if !bodyAllowed(r.status) {
		return 0, http.ErrBodyNotAllowed
	}
	r.written += int64(len(b))
	if r.declared != -1 && r.written > r.declared {
		return 0, http.ErrContentLength
	}
	return r.buf.Write(b)
}

// finish ends the answer once the handler returned: the buffered body and,
// for a chunked one, its last chunk go to the output.
func (r *response) finish() {
	r.done = true
	if !r.wroteHeader {
		r.WriteHeader(http.StatusOK)
	}
	r.buf.Flush()
	if !r.sentHead {
		r.writeHead(nil)
	}
	if r.chunking {
		r.c.out = append(r.c.out, "0\r\n\r\n"...)
	}
}

// reusable reports whether the connection may carry another request after
// this answer.
func (r *response) reusable() bool {
	if r.closeAfter || r.c.werr != nil {
		return false
	}
	return r.req.method == "HEAD" || r.declared == -1 || !bodyAllowed(r.status) || r.declared == r.written
}

// chunkWriter receives what leaves the buffer: the first bytes decide the
// head, the rest is framed as the head said.
type chunkWriter response

func (cw *chunkWriter) Write(p []byte) (int, error) {
	r := (*response)(cw)
	if !r.sentHead {
		r.writeHead(p)
	}
	if r.req.method == "HEAD" {
		return len(p), nil
	}
	if r.chunking {
		r.c.out = strconv.AppendInt(r.c.out, int64(len(p)), 16)
		r.c.out = append(r.c.out, "\r\n"...)
		r.c.send(p)
		r.c.out = append(r.c.out, "\r\n"...)
	} else {
		r.c.send(p)
	}
	return len(p), r.c.werr
}

// get returns the first value of a field as the handler set it.
func (r *response) get(key string) string {
	for _, f := range r.fields {
		if f.key == key && len(f.values) > 0 {
			return f.values[0]
		}
	}
	return ""
}

func (r *response) has(key string) bool {
	for _, f := range r.fields {
		if f.key == key {
			return true
		}
	}
	return false
}

func (r *response) drop(key string) {
	for i, f := range r.fields {
		if f.key == key {
			r.fields = append(r.fields[:i], r.fields[i+1:]...)
			return
		}
	}
}

// writeHead puts the status line and the header block in the output,
// deciding what net/http's server decides from the same fields and p, the
// first bytes of the body.
func (r *response) writeHead(p []byte) {
	r.sentHead = true
	isHEAD := r.req.method == "HEAD"
	code := r.status
	var date, length []byte
	var contentType, connection, encoding string
	te := r.get("Transfer-Encoding")
	hasTE := te != ""
	if r.done && !hasTE && bodyAllowed(code) && !r.has("Content-Length") && (!isHEAD || len(p) > 0) {
		r.declared = int64(len(p))
		length = strconv.AppendInt(r.c.scratch[:0], int64(len(p)), 10)
	}
	hasCL := r.declared != -1
	// As net/http: once shutting down, every answer says it is the last.
	if r.req.close || r.get("Connection") == "close" || r.c.s.isClosing() {
		r.closeAfter = true
	}
	if r.req.length != 0 && !r.closeAfter && int64(r.c.body.Len())+r.c.unread >= maxPostHandlerRead {
		r.closeAfter, r.limitHit = true, true
		r.drop("Connection")
		connection = "close"
	}
	if bodyAllowed(code) {
		if !r.has("Content-Type") && r.get("Content-Encoding") == "" && !hasTE && len(p) > 0 {
			contentType = http.DetectContentType(p)
		}
	} else {
		if code == http.StatusNotModified {
			r.drop("Content-Type")
		}
		r.drop("Content-Length")
		r.drop("Transfer-Encoding")
	}
	if !r.has("Date") {
		date = time.Now().UTC().AppendFormat(r.c.dateBuf[:0], http.TimeFormat)
	}
	if hasCL && hasTE && te != "identity" {
		r.drop("Content-Length")
		hasCL = false
	}
	switch {
	case isHEAD || !bodyAllowed(code):
		r.drop("Transfer-Encoding")
	case hasCL:
		r.drop("Transfer-Encoding")
	case hasTE && te == "identity":
		r.closeAfter = true
		r.drop("Transfer-Encoding")
	default:
		r.chunking = true
		encoding = "chunked"
		if te == "chunked" {
			r.drop("Transfer-Encoding")
		}
	}
	if r.chunking {
		r.drop("Content-Length")
	}
	if r.closeAfter && !hasToken(r.get("Connection"), "close") {
		r.drop("Connection")
		connection = "close"
	}
	out := append(r.c.out, "HTTP/1.1 "...)
	if text := http.StatusText(code); text != "" {
		out = strconv.AppendInt(out, int64(code), 10)
		out = append(append(append(out, ' '), text...), "\r\n"...)
	} else {
		out = append(out, strconv.Itoa(code + 1000)[1:]+" status code "+strconv.Itoa(code)+"\r\n"...)
	}
	for _, f := range r.fields {
		if !validName(f.key) {
			continue
		}
		for _, v := range f.values {
			if hasNewline(v) {
				v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
			}
			v = strings.Trim(v, " \t\r\n")
			out = append(append(append(append(out, f.key...), ": "...), v...), "\r\n"...)
		}
	}
	if date != nil {
		out = append(append(append(out, "Date: "...), date...), "\r\n"...)
	}
	if length != nil {
		out = append(append(append(out, "Content-Length: "...), length...), "\r\n"...)
	}
	for _, kv := range [...][2]string{{"Content-Type", contentType}, {"Connection", connection}, {"Transfer-Encoding", encoding}} {
		if kv[1] != "" {
			out = append(append(append(append(out, kv[0]...), ": "...), kv[1]...), "\r\n"...)
		}
	}
	r.c.out = append(out, "\r\n"...)
}

// hasNewline reports whether v holds a CR or an LF, which net/http writes
// as spaces.
func hasNewline(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] == '\r' || v[i] == '\n' {
			return true
		}
	}
	return false
}

// bodyAllowed reports whether an answer with this status may have a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status <= 199 || status == http.StatusNoContent || status == http.StatusNotModified)
}

// validName reports whether an answer's field name is a token, which
// net/http requires to write it.
func validName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !wire.TokenByte(k[i]) {
			return false
		}
	}
	return true
}
