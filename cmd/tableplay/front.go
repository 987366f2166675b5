package main

import (
	"log"
	"net/http"
	"time"

	"github.com/tableplay/tableplay/core/h1"
	"github.com/tableplay/tableplay/core/rest"
)

// newFront is the server main runs: the front (core/h1) answers the
// SDKs' requests under the account paths itself and hands every other
// connection, at the request it does not take, to web served by net/http
// with the limits l.
func newFront(web http.Handler, api rest.Server, l limits, logger *log.Logger) *h1.Server {
	f := &h1.Server{API: api, Takes: isAPIPath, Fallback: newHTTPServer(web, l)}
	if logger != nil {
		f.Log = func(method, uri string, status int, elapsed time.Duration) {
			logger.Printf("%s %s %d %s", method, uri, status, elapsed.Round(time.Microsecond))
		}
	}
	return f
}
