package main

import (
	"log"
	"mime"
	"net/http"
	"path/filepath"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// serverConfig is what the native server is made of.
type serverConfig struct {
	web            string
	allowAnonymous bool
	clock          func() time.Time
	log            *log.Logger // nil: no request log
}

// newServer returns the native server's handler: the Table API under
// /devstoreaccount1/ and the playground's files at /.
func newServer(c serverConfig) http.Handler {
	creds := rest.WellKnown()
	creds.AllowUnsigned = c.allowAnonymous
	api := rest.New(rest.Options{
		Store:       store.New(store.Options{Clock: c.clock}),
		Credentials: creds,
		Clock:       c.clock,
	})
	// .wasm must be served as application/wasm for streaming compilation.
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	mux := http.NewServeMux()
	mux.Handle("/"+rest.WellKnownAccount+"/", api)
	mux.Handle("/"+rest.WellKnownAccount, api)
	mux.Handle("/", http.FileServer(http.Dir(filepath.Clean(c.web))))
	if c.log == nil {
		return mux
	}
	return logRequests(c.log, mux)
}

// connectionString is what an SDK needs to reach the server at addr.
func connectionString(addr string) string {
	return "DefaultEndpointsProtocol=http;AccountName=" + rest.WellKnownAccount + ";AccountKey=" + rest.WellKnownKey +
		";TableEndpoint=http://" + addr + "/" + rest.WellKnownAccount + ";"
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// logRequests writes one line per request: method, path, status, duration.
func logRequests(l *log.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		l.Printf("%s %s %d %s", r.Method, r.URL.RequestURI(), rec.status, time.Since(start).Round(time.Microsecond))
	})
}
