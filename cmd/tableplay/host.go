package main

import (
	"net"
	"net/http"
	"strings"
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
			http.Error(w, "tableplay answers only for localhost, 127.0.0.1, [::1] and the address it listens on; not for "+r.Host, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
