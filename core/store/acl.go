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
	ID         string
	HasPolicy  bool
	Start      *edm.Ticks
	Expiry     *edm.Ticks
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
// non-empty and at most 64 characters (400 InvalidXmlDocument otherwise, as
// the service answers an ACL it refuses).
func (s *Store) SetACL(tableName string, ids []SignedIdentifier) *tableerr.Error {
	if len(ids) > MaxSignedIdentifiers {
		return tableerr.New(tableerr.InvalidXMLDocument)
	}
	for _, id := range ids {
		if id.ID == "" || len(id.ID) > 64 || strings.TrimSpace(id.ID) != id.ID {
			return tableerr.New(tableerr.InvalidXMLDocument)
		}
	}
	t, err := s.tableFor(tableName)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.acl = append([]SignedIdentifier(nil), ids...)
	t.mu.Unlock()
	s.changed()
	return nil
}
