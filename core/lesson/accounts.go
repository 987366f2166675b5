package lesson

import (
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/play"
)

// Accounts gives each account of an engine its own lesson session, made on
// first use, so a lesson in an embedded playground runs in that playground's
// account and the page's lessons in the page's. Like a Session it is for one
// caller at a time (the browser's one thread).
type Accounts struct {
	// Lessons are the loaded lessons, shared by every account's library,
	// in the reader's language (Localize).
	Lessons []*Lesson
	// Locale is the reader's language for the texts a step's run answers
	// (rule cards, explanations, figures).
	Locale *locale.Locale
	// Engine holds the accounts the sessions run in.
	Engine *play.Accounts
	by     map[string]*Library
}

// Library returns the lessons bound to an account, or nil when the engine
// has no such account. A dropped account's session is forgotten, so
// embeds that come and go leave nothing behind.
func (a *Accounts) Library(name string) *Library {
	acct := a.Engine.Get(name)
	if acct == nil {
		return nil
	}
	if lib := a.by[name]; lib != nil && lib.Session.Store == acct.Store {
		lib.Lessons, lib.Session.API = a.Lessons, acct.API.In(a.Locale)
		return lib
	}
	if a.by == nil {
		a.by = map[string]*Library{}
	}
	for n, lib := range a.by {
		if x := a.Engine.Get(n); x == nil || x.Store != lib.Session.Store {
			delete(a.by, n)
		}
	}
	lib := &Library{Lessons: a.Lessons, Session: &Session{API: acct.API.In(a.Locale), Handler: acct.Handler, Store: acct.Store}}
	a.by[name] = lib
	return lib
}

// Changed tells an account's session (if it has one) that its account
// changed; call it from the accounts' OnChange (a nil Accounts, not made
// yet, ignores it).
func (a *Accounts) Changed(name string) {
	if a == nil {
		return
	}
	if lib := a.by[name]; lib != nil {
		lib.Session.Changed()
	}
}
