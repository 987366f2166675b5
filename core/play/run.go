package play

import "github.com/tableplay/tableplay/core/rest"

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
	// Error says why no request could be built or sent.
	Error string `json:"error,omitempty"`
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
