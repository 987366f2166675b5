package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// Redo applies one change record as Journal.Record received it: how a
// journal's owner replays its log at start. It records nothing, reads no
// clock and checks every value as Restore does; a record that is not a valid
// change is an error and changes nothing.
//
// A record that names a table the account does not have is skipped: a
// compacted snapshot is taken while writes go on, so it may already reflect a
// deletion that the log replays after older writes to the deleted table.
// Every other record sets state outright (an entity stored, a key removed, a
// table created empty), so replaying the log from the point where the
// snapshot was begun gives the state the log ends in.
func (s *Store) Redo(rec []byte) error {
	var c change
	dec := json.NewDecoder(bytes.NewReader(rec))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return fmt.Errorf("not a change record: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("not a change record: text after the record")
	}
	if c.Version != 0 && c.Version != changeVersion {
		return fmt.Errorf("unsupported change record version %d (this build reads versions 1 and %d)", c.Version, changeVersion)
	}
	switch c.Op {
	case opCreateTable:
		return s.redoCreate(c)
	case opDeleteTable:
		s.redoDelete(c.Table)
		return nil
	case opWrite:
		return s.redoWrite(c)
	case opACL:
		return s.redoACL(c)
	case opProperties:
		if c.Properties == nil {
			return fmt.Errorf("properties record: no properties")
		}
		p, err := c.Properties.check()
		if err != nil {
			return fmt.Errorf("properties record: not valid service properties: %v", err)
		}
		s.setProperties(p, false)
		return nil
	case opRestore:
		tables, props, max, err := parseSnapshot(c.Doc, s.profile.TableNames)
		if err == nil {
			tables, err = s.rekey(tables)
		}
		if err != nil {
			return fmt.Errorf("restore record: %v", err)
		}
		s.replace(tables, props, max, nil)
		return nil
	}
	return fmt.Errorf("not a change record: unknown op %q", c.Op)
}

func (s *Store) redoCreate(c change) error {
	if err := entity.CheckTableNameBy(s.profile.TableNames, c.Table); err != nil {
		return fmt.Errorf("createTable record: %s", err.Message)
	}
	created, err := edm.ParseDateTime(c.Created)
	if err != nil {
		return fmt.Errorf("createTable record %q: created: %v", c.Table, err)
	}
	key := s.tableKey(c.Table)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.tables[key]; old != nil {
		old.drop(func() uint64 { return 0 })
	}
	s.tables[key] = newTable(c.Table, created)
	return nil
}

func (s *Store) redoDelete(name string) {
	key := s.tableKey(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tables[key]; t != nil {
		delete(s.tables, key)
		t.drop(func() uint64 { return 0 })
	}
}

func (s *Store) redoWrite(c change) error {
	ts, err := edm.ParseDateTime(c.Stamp)
	if err != nil {
		return fmt.Errorf("write record: ts: %v", err)
	}
	var put []*entity.Entity
	var batch entityBatch
	switch {
	case c.Version == 0 && c.Block != nil, c.Version != 0 && c.Put != nil:
		return fmt.Errorf("write record on %q: entities in another version's form", c.Table)
	case c.Block != nil:
		if len(c.Block) == 0 || c.Block[0] != 'E' {
			return fmt.Errorf("write record on %q: its entities are not an entities block", c.Table)
		}
		if batch = decodeEntities(c.Block); batch.err != nil {
			return fmt.Errorf("write record on %q, entity %d: %v", c.Table, len(batch.rows)+1, batch.err)
		}
	default:
		put = make([]*entity.Entity, len(c.Put))
		for i, se := range c.Put {
			e, err := restoreEntity(se)
			if err != nil {
				return fmt.Errorf("write record on %q, entity %d: %v", c.Table, i+1, err)
			}
			put[i] = e
		}
	}
	t := s.lookup(c.Table)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range put {
		prev, _ := t.work.Set(itemOf(t.pack(e, e.Timestamp, nil), e.PartitionKey, e.RowKey))
		t.release(prev.r)
	}
	if len(batch.rows) > 0 {
		// The rows name properties by the block's indexes: moved to the
		// table's dictionary as a snapshot's are.
		refs, same := t.remap(batch.names)
		for _, rw := range batch.rows {
			if !same {
				t.rename(rw, batch.names, refs)
			}
			pk, rk := rw.keys()
			prev, _ := t.work.Set(itemOf(rw, pk, rk))
			t.release(prev.r)
		}
	}
	for _, k := range c.Delete {
		prev, _ := t.work.Delete(probe(k[0], k[1]))
		t.release(prev.r)
	}
	if ts > t.last {
		t.last = ts
	}
	t.published()
	return nil
}

func (s *Store) redoACL(c change) error {
	if len(c.ACL) > MaxSignedIdentifiers {
		return fmt.Errorf("acl record on %q: more than %d stored access policies", c.Table, MaxSignedIdentifiers)
	}
	ids := make([]SignedIdentifier, 0, len(c.ACL))
	for _, p := range c.ACL {
		id, err := restorePolicy(p)
		if err != nil {
			return fmt.Errorf("acl record on %q, policy %q: %v", c.Table, p.ID, err)
		}
		ids = append(ids, id)
	}
	t := s.lookup(c.Table)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.acl = ids
	return nil
}
