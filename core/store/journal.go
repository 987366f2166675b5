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

// A change record is one JSON object. It holds the change's result, not the
// request that caused it (the entities as stored, with their Timestamps), so
// replaying it needs neither the clock nor the If-Match rules, and replaying
// it again over a state that already has it gives the same state.
type change struct {
	Op         string             `json:"op"`
	Table      string             `json:"table,omitempty"`
	Created    string             `json:"created,omitempty"`    // createTable
	Stamp      string             `json:"ts,omitempty"`         // write: the Timestamp it used
	Put        []snapshotEntity   `json:"put,omitempty"`        // write: entities stored
	Delete     [][2]string        `json:"delete,omitempty"`     // write: [PartitionKey, RowKey] removed
	ACL        []snapshotPolicy   `json:"acl,omitempty"`        // acl: the whole new list
	Properties *ServiceProperties `json:"properties,omitempty"` // properties
	Doc        json.RawMessage    `json:"doc,omitempty"`        // restore: the account document
}

// The change kinds.
const (
	opCreateTable = "createTable"
	opDeleteTable = "deleteTable"
	opWrite       = "write"
	opACL         = "acl"
	opProperties  = "properties"
	opRestore     = "restore"
)

// encodeChange renders a change record; only strings and numbers go in, so
// encoding cannot fail.
func encodeChange(c change) []byte {
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
	for i, op := range ops {
		if out[i] == nil {
			c.Delete = append(c.Delete, [2]string{op.Entity.PartitionKey, op.Entity.RowKey})
			continue
		}
		c.Put = append(c.Put, entityRecord(out[i]))
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
