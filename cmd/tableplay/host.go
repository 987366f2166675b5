package main

import (
	"net"
	"net/http"
	"strings"

	"github.com/tableplay/tableplay/core/rest"
)

// hostRule decides which Host headers the server answers. A page on any
// other name could otherwise reach this loopback server through DNS
// rebinding (its own name made to resolve to 127.0.0.1) and read the API and
// the files as if same-origin. So only loopback names and the name or
// address the server was told to listen on are served; when told to listen
// on every interface (0.0.0.0, ::), any IP address literal is served too, as
// rebinding needs a name.
type hostRule struct {
	bind       string // the host of --addr, lower case, without brackets
	anyLiteral bool   // listening on all interfaces
}

func newHostRule(addr string) hostRule {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	ip := net.ParseIP(host)
	return hostRule{bind: host, anyLiteral: host == "" || (ip != nil && ip.IsUnspecified())}
}

// allows reports whether a request's Host (with or without a port) is served.
func (h hostRule) allows(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	switch host {
	case "":
		return false
	case "localhost", "127.0.0.1", "::1", h.bind:
		return true
	}
	return h.anyLiteral && net.ParseIP(host) != nil
}

// checkHost refuses requests for names the rule does not allow with 403.
func checkHost(rule hostRule, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rule.allows(r.Host) {
			http.Error(w, refusal(r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refusal is the text of the 403 for a Host the rule does not allow.
func refusal(host string) string {
	return "tableplay answers only for localhost, 127.0.0.1, [::1] and the address it listens on; not for " + host
}

// hostGate is checkHost for the front: the same rule and the same answer
// (http.Error's fields and text) before the API.
type hostGate struct {
	rule hostRule
	next rest.HeadServer
}

// Handle refuses a Host the rule does not allow, as checkHost does.
func (g hostGate) Handle(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	if g.rule.allows(r.Host) {
		g.next.Handle(w, header, r)
		return
	}
	g.refuse(w, header, r)
}

// HandleHead refuses a Host the rule does not allow on the head alone, and
// otherwise begins the request in the API (rest.HeadServer), so that the
// front reads a body only for a request let through.
func (g hostGate) HandleHead(w rest.ResponseWriter, header rest.Header, r rest.Request) func(rest.Request) {
	if g.rule.allows(r.Host) {
		return g.next.HandleHead(w, header, r)
	}
	g.refuse(w, header, r)
	return nil
}

// refuse answers a Host the rule does not allow.
func (g hostGate) refuse(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	header.Set("Content-Type", "text/plain; charset=utf-8")
	header.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusForbidden)
	w.Write([]byte(refusal(r.Host) + "\n"))
}
