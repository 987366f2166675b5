//go:build js && wasm

// Command entry is the rooms' entry Worker (Cloudflare Workers, Go on
// syumai/workers): it creates rooms (POST /rooms), hands /<room>/… to the
// room's Durable Object and serves the site's files (docs/hosting.md).
package main

import (
	"net/http"
	"syscall/js"
	"time"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

func main() {
	cfg, err := readConfig(getenv)
	e := &entry{cfg: cfg, clock: time.Now, rnd: cryptoRand}
	// syumai/workers finds the binding (or says it is missing); the
	// requests go through jsFetch.
	if _, nsErr := cloudflare.NewDurableObjectNamespace("ROOMS"); err == nil && nsErr != nil {
		err = nsErr
	}
	if err != nil {
		serve(misconfigured(e, err))
	}
	e.rooms = namespace{cloudflare.GetBinding("ROOMS")}
	if b := cloudflare.GetBinding("ASSETS"); !b.IsUndefined() && !b.IsNull() {
		e.assets = site{fetch: func(r *http.Request) (*http.Response, error) { return jsFetch(b, r) }}
	}
	serve(e)
}

// serve answers every request of the isolate with h and never returns: one
// Go instance serves the isolate's life (worker.mjs). workers.Serve would
// end the program after the first answer, as syumai/workers' own shim
// starts an instance per request.
func serve(h http.Handler) {
	workers.ServeNonBlock(h)
	workers.Ready()
	select {}
}

// getenv reads a text binding of the Worker; an unset one is "" (workerd's
// fromEnvironment binds null for a variable that is not set, which
// cloudflare.Getenv would read as "<null>").
func getenv(name string) string {
	if v := cloudflare.GetBinding(name); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// namespace reaches the rooms through the ROOMS Durable Object namespace.
type namespace struct {
	ns js.Value
}

// Fetch sends r to the object named after the account (idFromName, get,
// the stub's fetch).
func (n namespace) Fetch(account string, r *http.Request) (*http.Response, error) {
	return jsFetch(n.ns.Call("get", n.ns.Call("idFromName", account)), r)
}
