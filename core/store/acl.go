package store

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// MaxSignedIdentifiers is the most stored access policies a table holds.
const MaxSignedIdentifiers = 5

// SignedIdentifier is one stored access policy of a table's ACL. A policy
// without fields (<AccessPolicy/>) is kept but has HasPolicy false.
type SignedIdentifier struct {
	// ID is the policy's identifier, which a SAS names to use it.
	ID string
	// HasPolicy says the identifier carries an access policy; when false,
	// Start, Expiry and Permission are empty.
	HasPolicy bool
	// Start is when the policy starts; nil when it names no start.
	Start *edm.Ticks
	// Expiry is when the policy ends; nil when it names no expiry.
	Expiry *edm.Ticks
	// Permission is the permission letters as sent (e.g. "raud").
	Permission string
}

// ACL returns a table's stored access policies (404 TableNotFound for a
// missing table).
func (s *Store) ACL(tableName string) ([]SignedIdentifier, *tableerr.Error) {
	t, err := s.tableFor(tableName)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]SignedIdentifier(nil), t.acl...), nil
}

// SetACL replaces a table's stored access policies: at most 5, each id
// non-empty and at most 64 characters, times within the DateTime range the
// account stores (400 InvalidXmlDocument otherwise, as the service answers
// an ACL it refuses).
func (s *Store) SetACL(tableName string, ids []SignedIdentifier) *tableerr.Error {
	if len(ids) > MaxSignedIdentifiers {
		return tableerr.New(tableerr.InvalidXMLDocument)
	}
	for _, id := range ids {
		if id.ID == "" || len(id.ID) > 64 || strings.TrimSpace(id.ID) != id.ID || !storable(id.Start) || !storable(id.Expiry) {
			return tableerr.New(tableerr.InvalidXMLDocument)
		}
	}
	t, err := s.tableFor(tableName)
	if err != nil {
		return err
	}
	if err := s.writable(); err != nil {
		return err
	}
	return s.settle(s.setACL(t, ids))
}

func (s *Store) setACL(t *table, ids []SignedIdentifier) (uint64, *tableerr.Error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return 0, tableerr.New(tableerr.TableNotFound)
	}
	t.acl = append([]SignedIdentifier(nil), ids...)
	return s.record(func() change { return change{Op: opACL, Table: t.name, ACL: policyRecords(t.acl)} }), nil
}

// storable reports whether a policy time is absent or one the snapshot
// document can hold (1601 to 9999): an ACL the account keeps must survive a
// snapshot and a replay.
func storable(t *edm.Ticks) bool { return t == nil || *t >= edm.MinTicks && *t <= edm.MaxTicks }
