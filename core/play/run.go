package play

import (
	"strconv"
	"strings"

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
	// RequestBytes and ResponseBytes are the sizes of the request and the
	// answer as HTTP/1.1 text: the first line, the header lines (the
	// request's Host included), the blank line and the body; 0 when nothing
	// was sent.
	RequestBytes int `json:"requestBytes,omitempty"`
	// ResponseBytes is the answer's size, counted as RequestBytes is.
	ResponseBytes int `json:"responseBytes,omitempty"`
	// Error says why no request could be built or sent.
	Error string `json:"error,omitempty"`
}

// headerBytes is the size of header lines "Name: value\r\n".
func headerBytes(h [][2]string) int {
	n := 0
	for _, kv := range h {
		n += len(kv[0]) + len(": ") + len(kv[1]) + len("\r\n")
	}
	return n
}

// wireBytes counts an exchange as HTTP/1.1 text. The request line names
// the path and query of r.URL, and Host its authority (cut by hand: net/url's
// writer would weigh on the browser build for one count).
func wireBytes(r Request, reply rest.Reply) (request, response int) {
	target, host := r.URL, ""
	if i := strings.Index(target, "://"); i >= 0 {
		host, target = target[i+3:], ""
		if j := strings.IndexByte(host, '/'); j >= 0 {
			host, target = host[:j], host[j:]
		}
	}
	if target == "" {
		target = "/"
	}
	req := len(r.Method) + len(" ") + len(target) + len(" HTTP/1.1\r\n") + headerBytes(r.Headers) + len("\r\n") + len(r.Body)
	if host != "" {
		req += len("Host: ") + len(host) + len("\r\n")
	}
	status := len("HTTP/1.1 ") + len(strconv.Itoa(reply.Status)) + len(" ") + len(reply.StatusText) + len("\r\n")
	return req, status + headerBytes(reply.Headers) + len("\r\n") + len(reply.Body)
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
	ran := Ran{Request: r, Response: &reply, Stats: stats}
	ran.RequestBytes, ran.ResponseBytes = wireBytes(r, reply)
	if reply.Status >= 300 {
		ran.Code, ran.Message = ErrorOf([]byte(reply.Body))
	}
	return mustJSON(ran)
}

// ReadError reads the service's error code and message from an answer's body
// (both empty when the body is not an odata.error), for answers the page
// fetched itself rather than through Run.
func (a *API) ReadError(body string) []byte {
	code, message := ErrorOf([]byte(body))
	return mustJSON(map[string]string{"code": code, "message": message})
}
