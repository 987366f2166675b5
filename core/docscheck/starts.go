package docscheck

import (
	"crypto/sha256"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// maxStarts bounds the restored start states a Checker keeps: each holds a
// whole account in memory.
const maxStarts = 4

// start is a restored start state kept for the examples that share it.
type start struct {
	session *lesson.Session
	doc     *lesson.Lesson
	table   string // the account's first table, the default of an example
	// dirty is set when the account changed after its restore (an example
	// wrote): the next example must restore it again.
	dirty bool
	used  uint64
}

// startsCache maps a start state's bytes (by hash) to its restored account,
// and a src= file's bytes to the start state read from them.
type startsCache struct {
	byHash map[[sha256.Size]byte]*start
	tick   uint64
	files  map[[sha256.Size]byte]readState
}

// readState is a src= file read as a start state.
type readState struct {
	in  inlineState
	msg string
}

// read is readStartState for a src= file's bytes, read once per content:
// checking a large file's JSON is most of an example's time.
func (c *startsCache) read(b []byte, from string) (inlineState, string) {
	h := sha256.New()
	h.Write([]byte(from + "\x00"))
	h.Write(b)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if r, ok := c.files[key]; ok {
		return r.in, r.msg
	}
	in, msg := readStartState(string(b), from)
	if c.files == nil || len(c.files) >= maxStarts {
		c.files = map[[sha256.Size]byte]readState{}
	}
	c.files[key] = readState{in, msg}
	return in, msg
}

// session returns a session on the start account doc, restored once per
// content and reused while no example changed it. restored is called on
// each restore.
func (c *startsCache) session(doc []byte, clock func() time.Time, restored func()) (*start, error) {
	if c.byHash == nil {
		c.byHash = map[[sha256.Size]byte]*start{}
	}
	key := sha256.Sum256(doc)
	c.tick++
	if st := c.byHash[key]; st != nil && !st.dirty {
		st.used = c.tick
		st.doc.Steps = nil
		st.session.Resume(st.doc)
		return st, nil
	}
	delete(c.byHash, key)
	st := &start{used: c.tick}
	st.session = newSession(clock, func() { st.dirty = true })
	st.doc = &lesson.Lesson{ID: "docs-example", Start: doc}
	if restored != nil {
		restored()
	}
	if err := st.session.Start(st.doc); err != nil {
		return nil, err
	}
	st.dirty = false // the restore itself is a change
	if t := gjson.GetBytes(st.session.Store.Snapshot(), "tables.0.name"); t.Exists() {
		st.table = t.String()
	}
	if len(c.byHash) >= maxStarts {
		var oldest [sha256.Size]byte
		var at uint64
		for k, v := range c.byHash {
			if at == 0 || v.used < at {
				oldest, at = k, v.used
			}
		}
		delete(c.byHash, oldest)
	}
	c.byHash[key] = st
	return st, nil
}

// newSession is lesson.NewSession with changed called on every change to
// the account, so that a start state an example wrote to is not reused.
func newSession(clock func() time.Time, changed func()) *lesson.Session {
	st := store.New(store.Options{Clock: clock, OnChange: changed})
	h := rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: clock})
	api := &play.API{Base: "http://127.0.0.1:10002/" + rest.WellKnownAccount, Clock: clock, Creds: rest.WellKnown(), Store: st}
	return &lesson.Session{API: api, Handler: h, Store: st}
}
