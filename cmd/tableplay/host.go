package main

import (
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// hostRule decides which Host headers the server answers. A page on any
// other name could otherwise reach this loopback server through DNS
// rebinding (its own name made to resolve to 127.0.0.1) and read the API and
// the files as if same-origin. So only loopback names (localhost and any
// name under .localhost, which resolves to loopback and which no site can
// own), the name or address the server was told to listen on, and the names
// given with --host (and their subdomains, product-style account URLs) are
// served; when told to listen on every interface (0.0.0.0, ::), any IP
// address literal is served too, as rebinding needs a name.
type hostRule struct {
	bind       string          // the host of --addr, lower case, without brackets
	anyLiteral bool            // listening on all interfaces
	names      map[string]bool // --host, lower case
}

func newHostRule(addr string, names ...string) hostRule {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	ip := net.ParseIP(host)
	r := hostRule{bind: host, anyLiteral: host == "" || (ip != nil && ip.IsUnspecified()), names: map[string]bool{}}
	for _, n := range names {
		r.names[strings.ToLower(strings.TrimSuffix(n, "."))] = true
	}
	return r
}

// hostName is a Host header's name: no port, no brackets, no final dot,
// lower case.
func hostName(hostport string) string {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
}

// allows reports whether a request's Host (with or without a port) is served.
func (h hostRule) allows(hostport string) bool {
	host := hostName(hostport)
	switch host {
	case "":
		return false
	case "localhost", "127.0.0.1", "::1", h.bind:
		return true
	}
	if h.names[host] || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if _, parent, ok := strings.Cut(host, "."); ok && h.names[parent] {
		return true // <account>.<name>, a product-style URL
	}
	return h.anyLiteral && net.ParseIP(host) != nil
}

// gate applies the Host rule before everything the server answers: the
// API, as a rest.HeadServer (the front and net/http hand it the same
// requests), and the files, as net/http middleware. Both ask allows and
// answer a refusal with refuse.
type gate struct {
	rule  hostRule
	api   rest.HeadServer
	clock func() time.Time
	newID func() string
}

// Handle refuses a Host the rule does not allow, and otherwise hands the
// request to the API.
func (g gate) Handle(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	if !g.rule.allows(r.Host) {
		g.refuse(w, header, r.Host)
		return
	}
	g.api.Handle(w, header, r)
}

// HandleHead refuses a Host the rule does not allow on the head alone, and
// otherwise begins the request in the API (rest.HeadServer), so that the
// front reads a body only for a request let through.
func (g gate) HandleHead(w rest.ResponseWriter, header rest.Header, r rest.Request) func(rest.Request) {
	if !g.rule.allows(r.Host) {
		g.refuse(w, header, r.Host)
		return nil
	}
	return g.api.HandleHead(w, header, r)
}

// files is next (the page's files) behind the same rule.
func (g gate) files(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.rule.allows(r.Host) {
			g.refuse(w, rest.Header(w.Header()), r.Host)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a Host the rule does not allow: 403 AuthorizationFailure
// in the service's JSON error body, with x-ms-error-code and a request id,
// so that an SDK reads it as it reads any refusal (a plain-text body made
// the Python SDK fail in its own error handling).
func (g gate) refuse(w rest.ResponseWriter, header rest.Header, host string) {
	e := tableerr.WithMessage(tableerr.AuthorizationFailure, refusal(host))
	id := g.newID()
	body := odata.AppendError(nil, e, id, edm.TicksFromTime(g.clock()))
	header.Set("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
	header.Set("X-Content-Type-Options", "nosniff")
	header.Set("X-Ms-Error-Code", string(e.Code))
	header.Set("X-Ms-Request-Id", id)
	w.WriteHeader(http.StatusForbidden)
	w.Write(body)
}

// refusal is the message of the 403 for a Host the rule does not allow.
func refusal(host string) string {
	return "tableplay answers only for localhost, 127.0.0.1, [::1], the address it listens on and the names given with --host (TABLEPLAY_HOSTS); not for " + host + " (docs/server.md, the Host rule)."
}
