package play

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// MaxAccounts bounds how many accounts one engine hosts at once (the page's
// own and its embeds), so a page cannot grow the engine without limit.
const MaxAccounts = 64

// Account is one independent account of the engine: its store, the Table
// API over it and the playground's functions bound to it.
type Account struct {
	// Name is the account name, the first segment of its URLs.
	Name string
	// Store holds the account's tables and entities.
	Store *store.Store
	// Handler is the Table API over Store.
	Handler *rest.Handler
	// API is the playground's functions, bound to this account.
	API *API
	// Changes holds the account's change records until the page drains
	// them (per-change saves, tabs that share the account).
	Changes *ChangeLog
}

// AccountsOptions configure Accounts.
type AccountsOptions struct {
	// Clock is the time source every account's store, handler and API share.
	Clock func() time.Time
	// Base gives the URL an account's requests and bodies use, from its
	// name (e.g. the page's origin + "/" + name).
	Base func(account string) string
	// OnChange, if set, is called with the account's name after every
	// change to it; it must not call back into the store synchronously.
	OnChange func(account string)
	// AllowUnsigned lets unsigned requests in (a page holds no secret).
	AllowUnsigned bool
	// TrustUnsigned lifts the limits on unsigned requests that guard a
	// server against other sites (the page's own requests never cross one).
	TrustUnsigned bool
}

// Accounts are the accounts one engine hosts, each reached by the account
// name in the request path. The well-known account always exists; others
// are created and dropped by name (the page's embeds).
type Accounts struct {
	opts   AccountsOptions
	router *rest.Router

	mu     sync.Mutex
	byName map[string]*Account // guarded by mu
	next   int                 // guarded by mu: the number of the last generated name
}

// NewAccounts returns the engine's accounts with the well-known one in it.
func NewAccounts(o AccountsOptions) *Accounts {
	s := &Accounts{opts: o, byName: map[string]*Account{}}
	first := s.build(rest.WellKnownAccount, profile.Default(), nil)
	s.byName[first.Name] = first
	s.router = rest.NewRouter(first.Handler)
	return s
}

// Router is the Table API of every account: the first path segment picks one.
func (s *Accounts) Router() *rest.Router { return s.router }

// Get returns an account by name, or nil.
func (s *Accounts) Get(name string) *Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byName[name]
}

// Errors of Create and Drop.
var (
	ErrAccountName   = errors.New("an account name is 3 to 24 lowercase letters and digits")
	ErrAccountExists = errors.New("that account exists")
	ErrTooMany       = errors.New("too many accounts in this engine (the limit is " + strconv.Itoa(MaxAccounts) + ")")
	ErrNoAccount     = errors.New("no such account")
	ErrKeepAccount   = errors.New("the well-known account cannot be dropped")
)

// Create adds an empty account. An empty name picks a free one
// ("embed1", "embed2", …).
func (s *Accounts) Create(name string) (*Account, error) {
	return s.CreateAs(name, profile.Default())
}

// CreateAs is Create for an account answering as profile p.
func (s *Accounts) CreateAs(name string, p profile.Profile) (*Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.byName) >= MaxAccounts {
		return nil, ErrTooMany
	}
	if name == "" {
		for name == "" || s.byName[name] != nil {
			s.next++
			name = "embed" + strconv.Itoa(s.next)
		}
	}
	if !validAccountName(name) {
		return nil, ErrAccountName
	}
	if s.byName[name] != nil {
		return nil, ErrAccountExists
	}
	a := s.build(name, p, nil)
	s.byName[name] = a
	s.router.Add(a.Handler)
	return a, nil
}

// ErrProfileKeep is SetProfile's error when the account's tables cannot
// all be kept under the profile asked for.
var ErrProfileKeep = errors.New("the account's tables cannot be kept under that profile")

// SetProfile makes an account answer as profile p from now on, keeping its
// tables and entities: they move into a store of that profile through a
// snapshot. Tables whose names differ only in case cannot move to a
// profile that folds case (F-COSMOS-TABLE-CASE): the account is then left
// as it was and ErrProfileKeep returned. The change log stays the
// account's, so what the page keeps of it stays valid.
func (s *Accounts) SetProfile(name string, p profile.Profile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.byName[name]
	if old == nil {
		return ErrNoAccount
	}
	a := s.build(name, p, old.Changes)
	if err := a.Store.Load(old.Store.Snapshot()); err != nil {
		return fmt.Errorf("%w: %v", ErrProfileKeep, err)
	}
	s.byName[name] = a
	s.router.Replace(a.Handler)
	return nil
}

// Drop removes an account and everything in it.
func (s *Accounts) Drop(name string) error {
	if name == rest.WellKnownAccount {
		return ErrKeepAccount
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byName[name] == nil {
		return ErrNoAccount
	}
	delete(s.byName, name)
	s.router.Remove(name)
	return nil
}

// build makes an account's store, handler and API; all accounts share the
// emulator's well-known key, so the SDK's signing works for any of them.
// changes, when set, is the log the account keeps (a new profile for an
// account that has one).
func (s *Accounts) build(name string, p profile.Profile, changes *ChangeLog) *Account {
	var onChange func()
	if s.opts.OnChange != nil {
		onChange = func() { s.opts.OnChange(name) }
	}
	if changes == nil {
		changes = &ChangeLog{}
	}
	st := store.New(store.Options{Clock: s.opts.Clock, OnChange: onChange, Journal: changes, Profile: p})
	creds := rest.WellKnown()
	creds.Account = name
	signer := creds
	creds.AllowUnsigned = s.opts.AllowUnsigned
	creds.TrustUnsigned = s.opts.TrustUnsigned
	h := rest.New(rest.Options{Store: st, Credentials: creds, Clock: s.opts.Clock})
	base := ""
	if s.opts.Base != nil {
		base = s.opts.Base(name)
	}
	return &Account{Name: name, Store: st, Handler: h, Changes: changes, API: &API{Base: base, Clock: s.opts.Clock, Creds: signer, Store: st, Handler: h}}
}

// validAccountName is the storage account naming rule: 3 to 24 characters,
// lowercase letters and digits only.
func validAccountName(name string) bool {
	if len(name) < 3 || len(name) > 24 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
