package play

import (
	"net/url"
	"strconv"

	"github.com/tableplay/tableplay/core/rest"
)

// Ran is Run's answer: the request the Go SDK sends for an operation, the
// engine's answer to it and, for a query, what the page cost (examined and
// returned entities), all from one run.
type Ran struct {
	// Request is the request built for the operation.
	Request Request `json:"request"`
	// Response is the Table API's answer; nil when nothing was sent.
	Response *rest.Reply `json:"response,omitempty"`
	// Stats is what an entity query examined and returned; nil when no query
	// reached the store.
	Stats *rest.QueryStats `json:"stats,omitempty"`
	// Code and Message are the service's error code and message when the
	// answer is an error (read from its body here, so the page need not).
	Code string `json:"code,omitempty"`
	// Message is the error's message, alongside Code; empty when the answer
	// succeeded.
	Message string `json:"message,omitempty"`
	// Bytes is the size of the request and the answer as HTTP/1.1 text;
	// nil when nothing was sent.
	Bytes *WireBytes `json:"bytes,omitempty"`
	// Error says why no request could be built or sent.
	Error string `json:"error,omitempty"`
}

// WireBytes is what one exchange put on the wire, each message counted as
// HTTP/1.1 text: its first line, its header lines (the request's Host
// included), the blank line and the body.
type WireBytes struct {
	// Request is the request's size in bytes.
	Request int `json:"request"`
	// Response is the answer's size in bytes.
	Response int `json:"response"`
}

// headerBytes is the size of header lines "Name: value\r\n".
func headerBytes(h [][2]string) int {
	n := 0
	for _, kv := range h {
		n += len(kv[0]) + len(": ") + len(kv[1]) + len("\r\n")
	}
	return n
}

// wireBytes counts an exchange as HTTP/1.1 text.
func wireBytes(r Request, reply rest.Reply) *WireBytes {
	target, host := r.URL, ""
	if u, err := url.Parse(r.URL); err == nil {
		target, host = u.RequestURI(), u.Host
	}
	req := len(r.Method) + len(" ") + len(target) + len(" HTTP/1.1\r\n") + headerBytes(r.Headers) + len("\r\n") + len(r.Body)
	if host != "" {
		req += len("Host: ") + len(host) + len("\r\n")
	}
	status := len("HTTP/1.1 ") + len(strconv.Itoa(reply.Status)) + len(" ") + len(reply.StatusText) + len("\r\n")
	return &WireBytes{Request: req, Response: status + headerBytes(reply.Headers) + len("\r\n") + len(reply.Body)}
}

// Run builds an operation's request (as RequestFor does) and answers it with
// the account's Table API in the same call, so the page runs a query once
// for both its results and its cost.
func (a *API) Run(opJSON []byte) []byte {
	r := a.requestOf(opJSON)
	if r.Error != "" {
		return mustJSON(Ran{Request: r, Error: r.Error})
	}
	if a.Handler == nil {
		return mustJSON(Ran{Request: r, Error: "no account"})
	}
	reply, stats := a.Handler.ServeMeasured(rest.Call{Method: r.Method, URL: r.URL, Headers: r.Headers, Body: r.Body})
	ran := Ran{Request: r, Response: &reply, Stats: stats, Bytes: wireBytes(r, reply)}
	if reply.Status >= 300 {
		ran.Code, ran.Message = rest.ErrorOf([]byte(reply.Body))
	}
	return mustJSON(ran)
}

// ReadError reads the service's error code and message from an answer's body
// (both empty when the body is not an odata.error), for answers the page
// fetched itself rather than through Run.
func (a *API) ReadError(body string) []byte {
	code, message := rest.ErrorOf([]byte(body))
	return mustJSON(map[string]string{"code": code, "message": message})
}
