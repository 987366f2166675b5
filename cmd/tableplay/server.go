package main

import (
	"crypto/rand"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net/http"
	"os"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// serverConfig is what the native server is made of.
type serverConfig struct {
	files          fs.FS  // the page's files; nil: this binary has none
	addr           string // the address it listens on, for the Host rule
	hosts          []string
	allowAnonymous bool
	clock          func() time.Time
	log            *log.Logger   // nil: no request log
	store          *store.Store  // the well-known account, when accounts is empty; nil: a new one in memory
	accounts       []served      // the accounts; empty: the well-known one in store
	tokens         *rest.Tokens  // bearer tokens accepted; nil: none
	trustForwarded bool          // X-Forwarded-Proto says the scheme (--trust-forwarded)
	requestID      func() string // x-ms-request-id values; nil: random
}

// served is one account the server serves: its credentials and store.
type served struct {
	creds rest.Credentials
	store *store.Store
}

// newServer returns the native server's handler: the Table API of its
// accounts and the playground's files at /, for allowed Host names only.
func newServer(c serverConfig) http.Handler {
	return newHandlers(c).page
}

// newHandlers returns the native server's net/http handler and, for the
// front (core/h1), the same API: one chain (access log, Host rule,
// account routing) that both transports hand their API requests to.
func newHandlers(c serverConfig) handlers {
	if c.requestID == nil {
		c.requestID = newRequestID
	}
	if len(c.accounts) == 0 {
		if c.store == nil {
			c.store = store.New(store.Options{Clock: c.clock})
		}
		c.accounts = []served{{creds: rest.WellKnown(), store: c.store}}
	}
	var router *rest.Router
	names := make([]string, 0, len(c.accounts))
	for _, a := range c.accounts {
		creds := a.creds
		creds.AllowUnsigned = c.allowAnonymous
		creds.Tokens = c.tokens
		h := rest.New(rest.Options{Store: a.store, Credentials: creds, Clock: c.clock, RequestID: c.requestID})
		if router == nil {
			router = rest.NewRouter(h)
		} else {
			router.Add(h)
		}
		names = append(names, creds.Account)
	}
	accts := newAccounts(router, names, c.hosts)
	var inner rest.HeadServer = accts
	if c.trustForwarded {
		inner = forwarded{next: accts}
	}
	g := gate{rule: newHostRule(c.addr, c.hosts...), api: inner, clock: c.clock, newID: c.requestID}
	var api rest.HeadServer = g
	files := newFileServer(c.files, resthttp.New(inner))
	var page http.Handler = g.files(files)
	if c.log != nil {
		al := accessLog{l: c.log}
		api = loggedAPI{log: al, next: g}
		page = al.handler(page)
	}
	// .wasm must be served as application/wasm for streaming compilation.
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	toAPI := resthttp.New(api)
	dispatch := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if accts.takes(r.Host, r.URL.EscapedPath()) {
			toAPI.ServeHTTP(w, r)
			return
		}
		page.ServeHTTP(w, r)
	})
	// The mux only cleans paths (redirecting /a/../b); accounts decides.
	mux := http.NewServeMux()
	mux.Handle("/", dispatch)
	return handlers{page: mux, api: api, takes: accts.byPath}
}

// handlers are what newHandlers makes: net/http's handler for everything,
// the API chain for the front, and which paths the front takes itself.
type handlers struct {
	page  http.Handler
	api   rest.HeadServer
	takes func(path string) bool
}

// newRequestID returns a random GUID-shaped id for an answer the API did
// not write (a Host refusal).
func newRequestID() string {
	var b [16]byte
	rand.Read(b[:])
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
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
