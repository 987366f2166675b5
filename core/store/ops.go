package store

import (
	"slices"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Kind is a write operation.
type Kind uint8

// The six write operations.
const (
	Insert Kind = iota
	Replace
	Merge
	Delete
	InsertOrReplace
	InsertOrMerge
)

// String names the operation as the docs do.
func (k Kind) String() string {
	switch k {
	case Insert:
		return "Insert"
	case Replace:
		return "Replace"
	case Merge:
		return "Merge"
	case Delete:
		return "Delete"
	case InsertOrReplace:
		return "InsertOrReplace"
	case InsertOrMerge:
		return "InsertOrMerge"
	}
	return "?"
}

// Match is an If-Match condition.
type Match struct {
	// Kind says whether If-Match was absent, "*" or an ETag.
	Kind MatchKind
	ETag edm.Ticks // the Timestamp the ETag names, for MatchETag
}

// MatchKind says what If-Match carried.
type MatchKind uint8

// If-Match absent, "*", or an ETag.
const (
	MatchNone MatchKind = iota
	MatchAny
	MatchETag
)

// Op is one write: the entity (for Delete only its keys count) and, for
// Replace, Merge and Delete, the If-Match condition.
type Op struct {
	// Kind is the write to perform.
	Kind Kind
	// Entity is the entity to write, or the keys to delete.
	Entity *entity.Entity
	// IfMatch is the condition of a Replace, Merge or Delete.
	IfMatch Match
}

// Apply performs one write on a table and returns the stored entity (nil for
// Delete), whose Timestamp gives the new ETag. The rules are F-IF-MATCH's:
// Insert of an existing entity is 409 EntityAlreadyExists; Replace, Merge and
// Delete need the entity (404 ResourceNotFound) and a matching ETag (412
// UpdateConditionNotSatisfied); Delete without If-Match is 400
// MissingRequiredHeader (F-DELETE-IF-MATCH); a merge result must still satisfy the property
// count and entity size rules.
func (s *Store) Apply(tableName string, op Op) (*entity.Entity, *tableerr.Error) {
	t, err := s.tableFor(tableName)
	if err != nil {
		return nil, err
	}
	var one [1]*entity.Entity // the result, without a slice to allocate
	out, txErr := s.commit(t, []Op{op}, false, one[:])
	if txErr != nil {
		return nil, txErr.Err
	}
	return out[0], nil
}

// commit performs ops on t as one change, in place; a transaction undoes
// its earlier operations when one fails, leaving the table as it was. The
// change is recorded with the table's writer lock held, so the journal sees
// a table's changes in the order they took effect, and made durable after
// the lock is released, so that writers to the same table share flushes.
// The stored entities are written into out, which has room for one per
// operation.
func (s *Store) commit(t *table, ops []Op, tx bool, out []*entity.Entity) ([]*entity.Entity, *TxError) {
	if err := s.writable(); err != nil {
		return nil, &TxError{Index: 0, Err: err}
	}
	out, seq, txErr := s.commitLocked(t, ops, tx, out)
	if txErr != nil {
		return nil, txErr
	}
	if err := s.durable(seq); err != nil {
		return nil, &TxError{Index: 0, Err: err}
	}
	s.changed()
	return out, nil
}

func (s *Store) commitLocked(t *table, ops []Op, tx bool, out []*entity.Entity) ([]*entity.Entity, uint64, *TxError) {
	floor := s.floorTicks()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return nil, 0, &TxError{Index: 0, Err: tableerr.New(tableerr.TableNotFound)}
	}
	// The operations change the writer's tree in place; a transaction
	// that fails undoes the steps it made, so the tree holds what it held.
	// (Readers hold their own copies: see view.)
	work := t.work
	ts, ok := stamp(s.clock, t.last, floor)
	if !ok && !onlyDeletes(ops) {
		// Deletes give no entity a Timestamp: they still work, so an
		// account at the end of time can be emptied.
		return nil, 0, &TxError{Index: 0, Err: endOfTime()}
	}
	out = out[:len(ops)]
	s.keepOnce(ops)
	k := newKeeper(t, len(ops), tx)
	k.prepack(t, ops)
	for i, op := range ops {
		k.op = i
		if err := s.checkProfile(op); err != nil {
			k.rollback(work)
			return nil, 0, &TxError{Index: i, Err: err}
		}
		e, err := apply(t, work, op, ts, &k)
		if err != nil {
			k.rollback(work)
			return nil, 0, &TxError{Index: i, Err: err}
		}
		out[i] = e
	}
	k.held()
	t.last = ts
	t.published()
	seq := s.record(func() change { return writeChange(t.name, ts, ops, out) })
	return out, seq, nil
}

// keepOnce drops from the entities written the later properties of a
// name the profile keeps once (F-COSMOS-ETAG-PROPERTY), before they are
// packed; the first so named stays.
func (s *Store) keepOnce(ops []Op) {
	for _, once := range s.profile.KeptOnce {
		for _, op := range ops {
			e := op.Entity
			if op.Kind == Delete || e == nil {
				continue
			}
			seen := false
			for i := 0; i < len(e.Properties); i++ {
				if !strings.EqualFold(e.Properties[i].Name, once) {
					continue
				}
				if !seen {
					seen = true
					continue
				}
				// A new slice: the caller's array is left as it was.
				e.Properties = append(e.Properties[:i:i], e.Properties[i+1:]...)
				i--
			}
		}
	}
}

// checkProfile applies the profile's own rules to a written entity: a
// byte limit on its RowKey (F-COSMOS-ROWKEY-SIZE), reserved property
// names (F-COSMOS-RESERVED-NAMES), keys that may not be empty
// (F-COSMOS-EMPTY-KEYS). Azure has none beyond entity's own.
func (s *Store) checkProfile(op Op) *tableerr.Error {
	e := op.Entity
	if op.Kind == Delete || e == nil {
		return nil
	}
	if s.profile.NonEmptyKeys && (e.PartitionKey == "" || e.RowKey == "") {
		return tableerr.Broke(tableerr.PropertiesNeedValue, tableerr.Rule{
			ID: "cosmos-empty-key", Property: entity.PartitionKey,
			Statement: "On Cosmos DB for Table, PartitionKey and RowKey may not be empty.",
		})
	}
	for _, r := range s.profile.Reserved {
		for _, p := range e.Properties {
			if strings.EqualFold(p.Name, r) {
				return tableerr.Broke(tableerr.PropertyNameInvalid, tableerr.Rule{
					ID: "cosmos-reserved-name", Property: p.Name,
					Statement: "Cosmos DB for Table reserves the property names ID, rid and ResourceId.",
				})
			}
		}
	}
	m := s.profile.MaxRowKeyBytes
	if m == 0 || len(e.RowKey) <= m {
		return nil
	}
	return tableerr.Broke(tableerr.PropertyValueTooLarge, tableerr.Rule{
		ID: "cosmos-rowkey-bytes", Property: entity.RowKey,
		Measure:   &tableerr.Measure{Value: int64(len(op.Entity.RowKey)), Limit: int64(m), Unit: "bytes"},
		Statement: "On Cosmos DB for Table a RowKey is at most 255 bytes.",
	})
}

// apply performs op on tr, t's tree, with Timestamp ts, and returns the
// entity stored (as a new Entity; the tree holds its row).
func apply(t *table, tr *tree, op Op, ts edm.Ticks, k *keeper) (*entity.Entity, *tableerr.Error) {
	e := op.Entity
	if op.Kind == Delete && op.IfMatch.Kind == MatchNone {
		return nil, tableerr.New(tableerr.MissingRequiredHeader)
	}
	if op.Kind == Insert {
		return insert(t, tr, e, ts, k)
	}
	found, exists := tr.GetHint(probeIn(&t.key, e.PartitionKey, e.RowKey), &k.hint)
	t.key.data = ""
	cur := found.r
	switch op.Kind {
	case Replace, Merge, Delete:
		if !exists {
			return nil, tableerr.New(tableerr.ResourceNotFound)
		}
		if op.IfMatch.Kind == MatchETag && op.IfMatch.ETag != cur.ts {
			return nil, tableerr.New(tableerr.UpdateConditionNotSatisfied)
		}
	}
	if op.Kind == Delete {
		tr.DeleteHint(found, &k.hint)
		k.did(nil, cur)
		return nil, nil
	}
	var next *entity.Entity
	merged := exists && (op.Kind == Merge || op.Kind == InsertOrMerge)
	if merged {
		// The current entity is decoded into the table's scratch
		// properties: Merge copies what it keeps.
		n, _ := cur.count()
		var base entity.Entity
		t.scratch = slices.Grow(t.scratch[:0], n)[:n]
		cur.decode(t.names.list, &base, t.scratch)
		next = base.Merge(e)
		clear(t.scratch)
		if err := entity.CheckLimits(next); err != nil {
			return nil, err
		}
	} else {
		next = k.entity()
		next.PartitionKey, next.RowKey, next.Properties = e.PartitionKey, e.RowKey, e.Properties
	}
	// The live service returns an entity written through PUT or MERGE with
	// its properties in ordinal name order; an insert keeps the order the
	// client sent.
	next = sortedProperties(next, merged)
	next.Timestamp = ts
	k.keep(next)
	r := t.pack(next, ts, k.row())
	prev, _ := tr.SetHint(itemOf(r, next.PartitionKey, next.RowKey), &k.hint)
	k.did(r, prev.r)
	return next, nil
}

// insert stores e, which must be new, with Timestamp ts: in one descent of
// the tree, which tells by replacing whether the key was there (the row it
// replaced is then put back: the tree is as before).
func insert(t *table, tr *tree, e *entity.Entity, ts edm.Ticks, k *keeper) (*entity.Entity, *tableerr.Error) {
	next := k.entity()
	next.PartitionKey, next.RowKey, next.Properties = e.PartitionKey, e.RowKey, e.Properties
	next.Timestamp = ts
	k.keep(next)
	var r *row
	if data := k.prepacked(); data != "" {
		r = k.row()
		r.data, r.ts, r.size = data, ts, int32(next.KeptSize)
	} else {
		r = t.pack(next, ts, k.row())
	}
	if prev, exists := tr.SetHint(itemOf(r, next.PartitionKey, next.RowKey), &k.hint); exists {
		tr.SetHint(prev, &k.hint)
		*next, *r = entity.Entity{}, row{}
		return nil, tableerr.New(tableerr.EntityAlreadyExists)
	}
	k.did(r, nil)
	return next, nil
}

// sortedProperties returns e with its properties in ordinal (UTF-16) name
// order; owned says whether e's property slice is already private to it.
func sortedProperties(e *entity.Entity, owned bool) *entity.Entity {
	byName := func(a, b entity.Property) int { return edm.CompareStrings(a.Name, b.Name) }
	if slices.IsSortedFunc(e.Properties, byName) { // as a merge into a sorted entity often is
		return e
	}
	if !owned {
		e = e.Clone()
	}
	slices.SortStableFunc(e.Properties, byName)
	return e
}

// Get reads one entity: 404 TableNotFound for a missing table, 404
// ResourceNotFound for a missing entity.
func (s *Store) Get(tableName, pk, rk string) (*entity.Entity, *tableerr.Error) {
	t, err := s.tableFor(tableName)
	if err != nil {
		return nil, err
	}
	it, ok := t.view().Get(probe(pk, rk))
	if !ok {
		return nil, tableerr.New(tableerr.ResourceNotFound)
	}
	// The row's cached entity, when a read before kept one with its
	// encoding; else a fresh decoding, whose writing may keep one.
	return it.r.entity(t.names.load(), t.cache), nil
}

// onlyDeletes reports whether every operation is a delete.
func onlyDeletes(ops []Op) bool {
	for _, op := range ops {
		if op.Kind != Delete {
			return false
		}
	}
	return true
}
