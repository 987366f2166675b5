// Package resthttp serves the Table API (core/rest) over net/http: the
// adapter the native server, the tests and the SDK tests use. The browser
// build does not link it.
package resthttp

import (
	"net/http"

	"github.com/tableplay/tableplay/core/rest"
)

// Handler serves a rest.Server (a Handler or a Router) as an http.Handler.
type Handler struct {
	// Server answers every request the adapter receives.
	Server rest.Server
}

// New returns the http.Handler of s.
func New(s rest.Server) Handler { return Handler{Server: s} }

// ServeHTTP hands the request to the server. The header maps are shared, not
// copied (rest.Header has http.Header's type), and the body is read only
// when the operation needs it.
func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := rest.Request{Method: r.Method, URL: r.URL, Host: r.Host, Header: rest.Header(r.Header), Stream: r.Body,
		ContentLength: r.ContentLength, RemoteAddr: r.RemoteAddr, TLS: r.TLS != nil}
	if r.Body == nil {
		req.Stream = nil // an interface holding a nil ReadCloser is not nil
	}
	h.Server.Handle(w, rest.Header(w.Header()), req)
}
