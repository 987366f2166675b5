//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/tableplay/tableplay/wasm/jshttp"
)

// journal is the store's Journal in a room: the object's SQLite storage.
// Record keeps a change in memory; Wait hands every change not yet written
// to the object's append(firstSeq, [records]), which stores them as rows
// in one transaction (room.js). The engine answers synchronously inside
// one call from the object, so the store's Wait comes before the answer
// leaves, and the object's output gate holds the answer until the rows
// are committed. A change is one row: a batch is one change record, so it
// is stored whole or not at all.
type journal struct {
	binding js.Value
	seq     uint64   // the last change recorded
	written uint64   // the last change the object has stored
	pending [][]byte // recorded, not yet stored: changes written+1 … seq
	// err is set once the object failed to store a change: the account in
	// memory is then ahead of its storage, every later write answers 500,
	// and the object restarts from its storage (room.js).
	err error
}

// Record keeps a committed change until Wait; the store calls it with its
// locks held, so changes come in the order they took effect.
func (j *journal) Record(change []byte) uint64 {
	j.seq++
	j.pending = append(j.pending, change)
	return j.seq
}

// Wait stores every change up to seq (and those recorded after it, which
// share the one transaction).
func (j *journal) Wait(seq uint64) error {
	if j.err != nil {
		return j.err
	}
	if seq <= j.written {
		return nil
	}
	return j.flush()
}

// flush hands the pending changes to the object; a JavaScript exception
// from it (storage full, a row refused) becomes the journal's error.
func (j *journal) flush() (err error) {
	if len(j.pending) == 0 {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			j.err = fmt.Errorf("storing change records %d-%d: %v", j.written+1, j.seq, p)
			err = j.err
		}
	}()
	rows := js.Global().Get("Array").New()
	for _, c := range j.pending {
		rows.Call("push", jshttp.Bytes(c))
	}
	j.binding.Call("append", float64(j.written+1), rows)
	j.written = j.seq
	j.pending = nil
	return nil
}
