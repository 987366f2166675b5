package lesson

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// MaxCustom bounds how many lessons written in the browser an engine holds
// besides its own.
const MaxCustom = 16

// NewSession is a session on a fresh in-memory account signed with the
// well-known key, its time read from clock.
func NewSession(clock func() time.Time) *Session {
	st := store.New(store.Options{Clock: clock})
	h := rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: clock})
	api := &play.API{Base: "http://127.0.0.1:10002/" + rest.WellKnownAccount, Clock: clock, Creds: rest.WellKnown(), Store: st}
	return &Session{API: api, Handler: h, Store: st}
}

// Complete takes a lesson recorded in the page — everything but the steps'
// expectations — runs its steps from its start account in a fresh session
// and fills each expectation from the engine's answer: the status and error
// code; for a query the page's RowKeys, how many were returned and examined
// and whether a continuation came; for a batch the failing index; for a
// single-entity operation the entity afterwards. The result is read back
// with Parse, the loader every lesson file goes through, and returned as a
// lesson file.
func Complete(doc []byte, clock func() time.Time) ([]byte, error) {
	l, err := decode(doc)
	if err != nil {
		return nil, err
	}
	if err := l.checkStepCount(); err != nil {
		return nil, err
	}
	for i, st := range l.Steps {
		if st.Operation == nil {
			return nil, fmt.Errorf("step %d: a recorded step is an operation", i+1)
		}
	}
	if err := l.checkGenerate(); err != nil {
		return nil, err
	}
	s := NewSession(clock)
	if err := s.Start(l); err != nil {
		return nil, err
	}
	for i := range l.Steps {
		r := s.Run(i)
		if r.Error != "" {
			return nil, fmt.Errorf("step %d: %s", i+1, r.Error)
		}
		l.Steps[i].Expect = measured(l.Steps[i], r.Outcome)
	}
	out, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return nil, err
	}
	if _, err := Parse(out); err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// measured is the expectation a recorded step claims: what its run gave,
// in the fields that fit its operation.
func measured(st Step, got Expect) Expect {
	e := Expect{Status: got.Status, Code: got.Code}
	switch st.Operation.Kind {
	case "query":
		e.Returned, e.More = got.Returned, got.More
		if got.Returned != nil && *got.Returned <= 30 {
			e.RowKeys = got.RowKeys
		}
		if st.SAS == nil {
			e.Scanned = got.Scanned
		}
	case "batch":
		e.FailedIndex = got.FailedIndex
	default:
		e.Entity = got.Entity
	}
	return e
}

// AddCustom adds a lesson written in the browser (already read with Parse)
// to the lessons every account's library serves, replacing one of the same
// id; a lesson may not take an id of the engine's own lessons.
func (a *Accounts) AddCustom(l *Lesson, builtin int) error {
	for i, x := range a.Lessons {
		if x.ID != l.ID {
			continue
		}
		if i < builtin {
			return errors.New("id " + l.ID + " names one of the engine's own lessons")
		}
		a.Lessons[i] = l
		a.share()
		return nil
	}
	if len(a.Lessons)-builtin >= MaxCustom {
		return fmt.Errorf("at most %d lessons of your own at a time", MaxCustom)
	}
	a.Lessons = append(a.Lessons, l)
	a.share()
	return nil
}

// share hands the lesson list to every account's library.
func (a *Accounts) share() {
	for _, lib := range a.by {
		lib.Lessons = a.Lessons
	}
}
