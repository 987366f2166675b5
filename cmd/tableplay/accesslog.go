package main

import (
	"bytes"
	"log"
	"net/http"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// accessLog writes the one line per request that both transports log
// (line): the client's address, method, target, status, the error code
// (or -), the request id (or -) and the time taken, last.
type accessLog struct {
	l *log.Logger
}

// line writes one request's line.
func (a accessLog) line(client, method, uri string, n *answerNote, elapsed time.Duration) {
	code, id := n.errorCode(), n.header.Get("X-Ms-Request-Id")
	if code == "" {
		code = "-"
	}
	if id == "" {
		id = "-"
	}
	a.l.Printf("%s %s %s %d %s %s %s", client, method, uri, n.status, code, id, elapsed.Round(time.Microsecond))
}

// answerNote watches an answer being written, for its line: its status,
// its header fields and the start of an error's body, where the service
// puts the code (F-HEADERS).
type answerNote struct {
	status int
	header rest.Header
	body   []byte // the first bytes of an error's body
}

// sniffBytes is how much of an error's body is kept to find its code:
// the code comes first in both the JSON and the XML error bodies.
const sniffBytes = 256

// wrote notes the status and the start of an error's body.
func (n *answerNote) wrote(status int, b []byte) {
	if n.status == 0 {
		n.status = status
	}
	if n.status >= 400 && len(n.body) < sniffBytes {
		n.body = append(n.body, b[:min(len(b), sniffBytes-len(n.body))]...)
	}
}

// errorCode is the answer's error code: x-ms-error-code, or the code at
// the start of its JSON or XML error body.
func (n *answerNote) errorCode() string {
	if c := n.header.Get("X-Ms-Error-Code"); c != "" {
		return c
	}
	for _, k := range [...]struct{ open, close string }{{`"code":"`, `"`}, {"<Code>", "<"}} {
		if i := bytes.Index(n.body, []byte(k.open)); i >= 0 {
			rest := n.body[i+len(k.open):]
			if j := bytes.Index(rest, []byte(k.close)); j > 0 && j <= 64 {
				return string(rest[:j])
			}
		}
	}
	return ""
}

// restNote is a rest.ResponseWriter that notes what it passes on.
type restNote struct {
	w rest.ResponseWriter
	n answerNote
}

func (r *restNote) WriteHeader(status int) { r.n.wrote(status, nil); r.w.WriteHeader(status) }
func (r *restNote) Write(b []byte) (int, error) {
	r.n.wrote(http.StatusOK, b)
	return r.w.Write(b)
}

// loggedAPI is the API with the access log: each request's line once its
// answer is written (or, begun on its head, finished).
type loggedAPI struct {
	log  accessLog
	next rest.HeadServer
}

// Handle answers the request and logs it.
func (a loggedAPI) Handle(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	start := time.Now()
	rec := &restNote{w: w, n: answerNote{header: header}}
	a.next.Handle(rec, header, r)
	a.log.line(r.RemoteAddr, r.Method, r.URL.RequestURI(), &rec.n, time.Since(start))
}

// HandleHead begins the request (rest.HeadServer) and logs it when its
// answer is written.
func (a loggedAPI) HandleHead(w rest.ResponseWriter, header rest.Header, r rest.Request) func(rest.Request) {
	start := time.Now()
	rec := &restNote{w: w, n: answerNote{header: header}}
	finish := a.next.HandleHead(rec, header, r)
	if finish == nil {
		a.log.line(r.RemoteAddr, r.Method, r.URL.RequestURI(), &rec.n, time.Since(start))
		return nil
	}
	return func(body rest.Request) {
		finish(body)
		a.log.line(r.RemoteAddr, r.Method, r.URL.RequestURI(), &rec.n, time.Since(start))
	}
}

// httpNote is an http.ResponseWriter that notes what it passes on.
type httpNote struct {
	http.ResponseWriter
	n answerNote
}

func (h *httpNote) WriteHeader(status int) {
	h.n.wrote(status, nil)
	h.ResponseWriter.WriteHeader(status)
}
func (h *httpNote) Write(b []byte) (int, error) {
	h.n.wrote(http.StatusOK, b)
	return h.ResponseWriter.Write(b)
}

// handler is next with the access log, for what net/http serves itself.
func (a accessLog) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &httpNote{ResponseWriter: w, n: answerNote{header: rest.Header(w.Header())}}
		next.ServeHTTP(rec, r)
		if rec.n.status == 0 {
			rec.n.status = http.StatusOK
		}
		a.line(r.RemoteAddr, r.Method, r.URL.RequestURI(), &rec.n, time.Since(start))
	})
}
