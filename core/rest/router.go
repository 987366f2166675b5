package rest

import (
	"strings"
	"sync"
)

// Router serves several accounts from one process, as the browser engine
// does for a page with many embedded playgrounds: the first path segment
// names the account, and each account has its own Handler (its own store and
// credentials). A path naming no registered account goes to the fallback,
// which answers it as the service answers an unknown account.
type Router struct {
	mu       sync.RWMutex
	fallback *Handler            // guarded by mu
	accounts map[string]*Handler // guarded by mu
}

// NewRouter returns a router whose fallback (and first account) is h.
func NewRouter(h *Handler) *Router {
	return &Router{fallback: h, accounts: map[string]*Handler{h.creds.Account: h}}
}

// Add registers h under its account name; false if the name is taken.
func (rt *Router) Add(h *Handler) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, ok := rt.accounts[h.creds.Account]; ok {
		return false
	}
	rt.accounts[h.creds.Account] = h
	return true
}

// Remove unregisters an account; the fallback's account stays.
func (rt *Router) Remove(account string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, ok := rt.accounts[account]; !ok || account == rt.fallback.creds.Account {
		return false
	}
	delete(rt.accounts, account)
	return true
}

// Replace puts h in place of the handler registered under its account
// name, the fallback's too when it is that account (an account given
// another profile, docs/profiles.md); false if none is registered.
func (rt *Router) Replace(h *Handler) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	name := h.creds.Account
	if _, ok := rt.accounts[name]; !ok {
		return false
	}
	rt.accounts[name] = h
	if rt.fallback.creds.Account == name {
		rt.fallback = h
	}
	return true
}

// Lookup returns the handler of an account, or nil.
func (rt *Router) Lookup(account string) *Handler {
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	return rt.accounts[account]
}

// Handle hands the request to its account's handler.
func (rt *Router) Handle(w ResponseWriter, header Header, r Request) {
	rt.route(&r).Handle(w, header, r)
}

// route is the handler of the account r names, or the fallback.
func (rt *Router) route(r *Request) *Handler {
	account := strings.TrimSuffix(r.Account, secondarySuffix)
	if account == "" {
		account, _, _ = strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
		account = strings.TrimSuffix(account, secondarySuffix)
	}
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	if h := rt.accounts[account]; h != nil {
		return h
	}
	return rt.fallback
}
