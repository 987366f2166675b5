package store

import (
	"bytes"
	"encoding/json"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Journal makes committed changes durable: the native server's log.
//
// Record is called once per committed change (a table created or deleted, a
// write, a whole transaction, an ACL, the service properties, a restore) with
// the locks that order that change still held, so the journal sees changes in
// the order they took effect; it must not block on I/O and returns the
// change's sequence number. Wait(seq) returns once that change (and every
// change recorded before it) is durable; the store calls it after releasing
// its locks, before the caller learns that the change succeeded, so that
// concurrent writers can share one flush.
type Journal interface {
	Record(change []byte) uint64
	Wait(seq uint64) error
}

// WriteGate is what a Journal may also implement to say, before a change
// is applied, that it cannot make one durable (the native server's data
// directory found full or read-only at start): the store then refuses the
// change and leaves the account as it was, instead of making it in memory
// and answering an error after.
type WriteGate interface {
	// Writable returns nil when a change may be made, else why not.
	Writable() error
}

// readOnlyMessage is the answer's message for a change a WriteGate refused.
const readOnlyMessage = "This request is not authorized to perform this operation: the server cannot keep changes (its data directory is full or read-only), so the account is read-only. Nothing was changed."

// writable refuses a change before it is applied when the journal cannot
// make it durable: 403 AuthorizationFailure, as the service answers a
// write to a read-only endpoint (F-READ-ONLY-ACCOUNT), with a message
// saying why. Without a gate (memory, a journal that only fails late),
// nothing is refused here.
func (s *Store) writable() *tableerr.Error {
	g, ok := s.journal.(WriteGate)
	if !ok {
		return nil
	}
	if err := g.Writable(); err != nil {
		return tableerr.WithMessage(tableerr.AuthorizationFailure, readOnlyMessage)
	}
	return nil
}

// A change record is one JSON object. It holds the change's result, not the
// request that caused it (the entities as stored, with their Timestamps), so
// replaying it needs neither the clock nor the If-Match rules, and replaying
// it again over a state that already has it gives the same state.
//
// Records carry their version, v: 2, where a write's stored entities are
// one snapshot entities block (blocks.go, base64 in the JSON), so that an
// entity's values are written and checked by the store's one value codec
// (value.go) in the log as in the rows and the snapshot. Records without v
// are version 1, written before it, whose entities were text (put): Redo
// still reads them, as a log written then holds them.
type change struct {
	Version    int                `json:"v,omitempty"`
	Op         string             `json:"op"`
	Table      string             `json:"table,omitempty"`
	Created    string             `json:"created,omitempty"`    // createTable
	Stamp      string             `json:"ts,omitempty"`         // write: the Timestamp it used
	Block      []byte             `json:"block,omitempty"`      // write (v2): the entities stored, an 'E' block
	Put        []snapshotEntity   `json:"put,omitempty"`        // write (v1): entities stored, as text
	Delete     [][2]string        `json:"delete,omitempty"`     // write: [PartitionKey, RowKey] removed
	ACL        []snapshotPolicy   `json:"acl,omitempty"`        // acl: the whole new list
	Properties *ServiceProperties `json:"properties,omitempty"` // properties
	Doc        json.RawMessage    `json:"doc,omitempty"`        // restore: the account document
}

// changeVersion is the version of the records this build writes.
const changeVersion = 2

// The change kinds.
const (
	opCreateTable = "createTable"
	opDeleteTable = "deleteTable"
	opWrite       = "write"
	opACL         = "acl"
	opProperties  = "properties"
	opRestore     = "restore"
)

// encodeChange renders a change record at this build's version; only
// strings, numbers and bytes go in, so encoding cannot fail.
func encodeChange(c change) []byte {
	c.Version = changeVersion
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		panic("store: change encoding: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// writeChange is the record of a write or a transaction on a table: out holds
// the stored entities (nil for a delete) in the order of ops.
func writeChange(table string, ts edm.Ticks, ops []Op, out []*entity.Entity) change {
	c := change{Op: opWrite, Table: table, Stamp: ts.String()}
	var w entityBlock
	for i, op := range ops {
		if out[i] == nil {
			c.Delete = append(c.Delete, [2]string{op.Entity.PartitionKey, op.Entity.RowKey})
			continue
		}
		// Every stored value has a known type (the entity rules).
		_ = w.add(out[i])
	}
	if w.n > 0 {
		c.Block = w.block()
	}
	return c
}

// record hands a change to the journal (none: nothing to do). Call it with
// the locks that order the change held; build runs only when a journal is
// set, so an in-memory store pays nothing.
func (s *Store) record(build func() change) uint64 {
	if s.journal == nil {
		return 0
	}
	return s.journal.Record(encodeChange(build()))
}

// settle ends a table change numbered seq, or its failure err: the change
// made durable, then the store's watcher told.
func (s *Store) settle(seq uint64, err *tableerr.Error) *tableerr.Error {
	if err == nil {
		err = s.durable(seq)
	}
	if err == nil {
		s.changed()
	}
	return err
}

// durable waits until the change numbered seq is durable. A journal that
// cannot write answers 500: the change is in memory but not on disk, and the
// journal's owner is told to stop the process.
func (s *Store) durable(seq uint64) *tableerr.Error {
	if s.journal == nil || seq == 0 {
		return nil
	}
	if err := s.journal.Wait(seq); err != nil {
		return tableerr.New(tableerr.InternalError)
	}
	return nil
}
