//go:build js && wasm

package main

import (
	"net/http"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/tableerr"
)

// panicPath lets the browser tests prove that a panic inside a request
// becomes a 500 answer and leaves the engine running.
const panicPath = "/_tableplay/panic"

// bridge adapts requests as syumai/workers hands them over: it rejoins the
// header values the bridge split on commas (x-ms-date: "Tue, 01 …"), takes
// the host from the absolute URL (a browser Request has no Host header) and
// turns any panic into a 500 InternalError answer instead of a dead engine.
func bridge(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				w.Header().Set("Content-Type", odata.MinimalMetadata.ContentType())
				w.WriteHeader(http.StatusInternalServerError)
				w.Write(odata.AppendError(nil, tableerr.New(tableerr.InternalError), "bridge", edm.TicksFromTime(time.Now())))
			}
		}()
		for k, vs := range r.Header {
			if len(vs) > 1 {
				r.Header[k] = []string{strings.Join(vs, ",")}
			}
		}
		if r.Host == "" {
			r.Host = r.URL.Host
		}
		if r.URL.Path == panicPath {
			panic("forced by " + panicPath)
		}
		api.ServeHTTP(w, r)
	})
}
