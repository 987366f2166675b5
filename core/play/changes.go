package play

import (
	"encoding/json"
	"sync"
)

// MaxPendingChanges bounds the change records a ChangeLog holds between two
// drains; past it the log keeps none and asks for a whole snapshot instead.
const MaxPendingChanges = 4096

// ChangeLog is a store.Journal that keeps the account's change records in
// memory until the page drains them: the page stores them one by one (so two
// tabs never overwrite each other's account) and hands them to its other
// tabs. Nothing is written anywhere, so Wait returns at once.
type ChangeLog struct {
	mu      sync.Mutex
	seq     uint64
	pending []json.RawMessage
	full    bool // too many records were dropped: save a whole snapshot
}

// Record keeps one change record.
func (l *ChangeLog) Record(change []byte) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	if l.full {
		return l.seq
	}
	if len(l.pending) >= MaxPendingChanges {
		l.pending, l.full = nil, true
		return l.seq
	}
	l.pending = append(l.pending, json.RawMessage(change))
	return l.seq
}

// Wait returns at once: the records are only in memory.
func (l *ChangeLog) Wait(uint64) error { return nil }

// Drained is Drain's answer: the records since the last drain, oldest
// first, or Full when there were too many to keep (the page then saves the
// whole account).
type Drained struct {
	// Changes are the change records, oldest first; empty, not null, when
	// none are pending.
	Changes []json.RawMessage `json:"changes"`
	// Full says records were dropped, so only a whole save is correct.
	Full bool `json:"full"`
}

// Drain hands over the pending records and forgets them.
func (l *ChangeLog) Drain() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := Drained{Changes: l.pending, Full: l.full}
	if d.Changes == nil {
		d.Changes = []json.RawMessage{}
	}
	l.pending, l.full = nil, false
	return mustJSON(d)
}
