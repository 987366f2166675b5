package main

import (
	"io/fs"
	"log"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// serverConfig is what the native server is made of.
type serverConfig struct {
	files          fs.FS  // the page's files; nil: this binary has none
	addr           string // the address it listens on, for the Host rule
	allowAnonymous bool
	clock          func() time.Time
	log            *log.Logger   // nil: no request log
	store          *store.Store  // the account; nil: a new one in memory
	requestID      func() string // x-ms-request-id values; nil: random
}

// newServer returns the native server's handler: the Table API under
// /devstoreaccount1/ and the playground's files at /, for allowed Host names
// only.
func newServer(c serverConfig) http.Handler {
	h, _ := newHandlers(c)
	return h
}

// newHandlers returns the native server's net/http handler and, for the
// front (core/h1), the same account's API behind the same Host rule.
func newHandlers(c serverConfig) (http.Handler, rest.Server) {
	creds := rest.WellKnown()
	creds.AllowUnsigned = c.allowAnonymous
	if c.store == nil {
		c.store = store.New(store.Options{Clock: c.clock})
	}
	engine := rest.New(rest.Options{
		Store:       c.store,
		Credentials: creds,
		Clock:       c.clock,
		RequestID:   c.requestID,
	})
	api := resthttp.New(engine)
	// .wasm must be served as application/wasm for streaming compilation.
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	mux := http.NewServeMux()
	mux.Handle("/"+rest.WellKnownAccount+"/", api)
	mux.Handle("/"+rest.WellKnownAccount, api)
	// The read-only secondary endpoint, path-style (F-STATS-SECONDARY).
	mux.Handle("/"+rest.WellKnownAccount+"-secondary/", api)
	mux.Handle("/"+rest.WellKnownAccount+"-secondary", api)
	mux.Handle("/", newFileServer(c.files, api))
	rule := newHostRule(c.addr)
	h := checkHost(rule, mux)
	if c.log == nil {
		return h, hostGate{rule: rule, next: engine}
	}
	return logRequests(c.log, h), hostGate{rule: rule, next: engine}
}

// isAPIPath reports whether net/http's mux above sends a request for this
// (escaped, clean) path to the API: the account and its secondary endpoint.
func isAPIPath(p string) bool {
	for _, account := range [...]string{"/" + rest.WellKnownAccount + "-secondary", "/" + rest.WellKnownAccount} {
		if rest, ok := strings.CutPrefix(p, account); ok && (rest == "" || rest[0] == '/') {
			return true
		}
	}
	return false
}

// dirFiles serves a directory (--web) for development: through an os.Root,
// so no symbolic link inside it reaches a file outside.
func dirFiles(dir string) (fs.FS, func() error, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	return root.FS(), root.Close, nil
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

// WriteHeader notes the status before passing it on.
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
