package main

import (
	"net"
	"strings"

	"github.com/tableplay/tableplay/core/rest"
)

// secondarySuffix names an account's read-only secondary endpoint
// (F-STATS-SECONDARY).
const secondarySuffix = "-secondary"

// productSuffix is the host under which every account has a product-style
// URL, as in Azurite: http://{account}.table.localhost:10002/.
const productSuffix = ".table.localhost"

// accounts decides, once for every transport, which requests are the
// API's and which account each names: path-style, /{account}/… or
// /{account}-secondary/…, or product-style, by a host
// {account}.table.localhost or {account}.{a --host name}. As a
// rest.HeadServer it sets the request's account from its host and hands it
// to the accounts' router.
type accounts struct {
	names    map[string]bool // the accounts served
	suffixes []string        // the product-style host suffixes, each with its dot
	router   *rest.Router
}

func newAccounts(router *rest.Router, names, hosts []string) accounts {
	a := accounts{names: map[string]bool{}, suffixes: []string{productSuffix}, router: router}
	for _, n := range names {
		a.names[n] = true
	}
	for _, h := range hosts {
		a.suffixes = append(a.suffixes, "."+strings.ToLower(strings.TrimSuffix(h, ".")))
	}
	return a
}

// known reports whether a path segment or host label names an account or
// its secondary endpoint.
func (a accounts) known(name string) bool {
	return a.names[strings.TrimSuffix(name, secondarySuffix)]
}

// byPath reports whether an (escaped, clean) path names an account: the
// front takes only these itself.
func (a accounts) byPath(p string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return strings.HasPrefix(p, "/") && a.known(first)
}

// byHost returns the account a product-style Host names, or "". Account
// names are lower case, so the label is matched as sent.
func (a accounts) byHost(hostport string) string {
	host := hostName(hostport)
	for _, s := range a.suffixes {
		if label, ok := strings.CutSuffix(host, s); ok && label != "" && !strings.Contains(label, ".") && a.known(label) {
			return label
		}
	}
	return ""
}

// takes reports whether a request goes to the API.
func (a accounts) takes(host, path string) bool {
	return a.byHost(host) != "" || a.byPath(path)
}

// Handle hands the request to its account.
func (a accounts) Handle(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	r.Account = a.byHost(r.Host)
	a.router.Handle(w, header, r)
}

// HandleHead begins the request in its account (rest.HeadServer).
func (a accounts) HandleHead(w rest.ResponseWriter, header rest.Header, r rest.Request) func(rest.Request) {
	r.Account = a.byHost(r.Host)
	finish := a.router.HandleHead(w, header, r)
	if finish == nil {
		return nil
	}
	return func(body rest.Request) {
		body.Account = r.Account
		finish(body)
	}
}

// reachable is an address a client can use for one the server listens
// on: a wildcard host (0.0.0.0, ::, none) becomes 127.0.0.1, which every
// listener on all interfaces answers, where "[::]" reaches nothing.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// connectionString is what an SDK needs to reach an account of the server
// at addr over scheme.
func connectionString(scheme, addr, account, key string) string {
	return "DefaultEndpointsProtocol=" + scheme + ";AccountName=" + account + ";AccountKey=" + key +
		";TableEndpoint=" + scheme + "://" + addr + "/" + account + ";"
}
