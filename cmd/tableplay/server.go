package main

import (
	"log"
	"mime"
	"net/http"
	"os"
	"path"
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
	// The read-only secondary endpoint, path-style (F-STATS-SECONDARY).
	mux.Handle("/"+rest.WellKnownAccount+"-secondary/", api)
	mux.Handle("/"+rest.WellKnownAccount+"-secondary", api)
	mux.Handle("/", filesOr(api, filepath.Clean(c.web)))
	if c.log == nil {
		return mux
	}
	return logRequests(c.log, mux)
}

// filesOr serves the playground's files from dir and hands a path that
// names no file to the API, which answers it with an error body in the
// service's format instead of a plain-text 404 (F-UNKNOWN-PATH).
func filesOr(api http.Handler, dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
		if _, err := os.Stat(name); err != nil {
			api.ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
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
