package main

import (
	"net/http"

	"github.com/tableplay/tableplay/core/h1"
	"github.com/tableplay/tableplay/core/rest"
)

// newFront is the server main runs: the front (core/h1) answers the
// SDKs' path-style requests itself and hands every other connection, at
// the request it does not take, to web served by net/http with the limits
// l. api is newHandlers' chain, which logs its own requests; takes is the
// accounts' path rule.
func newFront(web http.Handler, api rest.Server, takes func(string) bool, l limits) *h1.Server {
	return &h1.Server{API: api, Takes: takes, Fallback: newHTTPServer(web, l)}
}
