//go:build js && wasm

// Command entry is the rooms' entry Worker (Cloudflare Workers, Go on
// syumai/workers): it creates rooms (POST /rooms), hands /<room>/… to the
// room's Durable Object and serves the site's files (docs/hosting.md).
package main

import (
	"net/http"
	"time"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

func main() {
	cfg, err := readConfig(cloudflare.Getenv)
	e := &entry{cfg: cfg, clock: time.Now, rnd: cryptoRand}
	ns, nsErr := cloudflare.NewDurableObjectNamespace("ROOMS")
	if err == nil && nsErr != nil {
		err = nsErr
	}
	if err != nil {
		workers.Serve(misconfigured(e, err))
		return
	}
	e.rooms = namespace{ns}
	if b := cloudflare.GetBinding("ASSETS"); !b.IsUndefined() {
		e.assets = binding{fetch.NewClient(fetch.WithBinding(b))}
	}
	workers.Serve(e)
}

// namespace reaches the rooms through the ROOMS Durable Object namespace.
type namespace struct {
	ns *cloudflare.DurableObjectNamespace
}

// Fetch sends r to the object named after the account.
func (n namespace) Fetch(account string, r *http.Request) (*http.Response, error) {
	stub, err := n.ns.Get(n.ns.IdFromName(account))
	if err != nil {
		return nil, err
	}
	return stub.Fetch(r)
}

// binding serves the site from the ASSETS binding (Workers static assets;
// workerd's disk service locally).
type binding struct{ c *fetch.Client }

// ServeHTTP answers with the asset the binding has for the request.
func (b binding) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := &fetch.Request{Request: r.Clone(r.Context())}
	if r.Body == http.NoBody {
		req.Body = nil
	}
	resp, err := b.c.Do(req, nil)
	if err != nil {
		http.Error(w, "the site's files are not reachable", http.StatusBadGateway)
		return
	}
	copyResponse(w, resp)
}
