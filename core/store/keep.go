package store

import (
	"github.com/tidwall/btree"

	"github.com/tableplay/tableplay/core/entity"
)

// keeper readies the entities one commit stores. For a commit of several
// operations (a batch) it takes their structs from shared chunks: a few
// allocations instead of one per entity, and entities that lie side by side
// in memory, as a later scan likes them. A chunk lives while any entity in
// it does, so chunks are small. The zero value allocates each entity on its
// own.
type keeper struct {
	shared   bool
	entities []entity.Entity
	// left is how many operations of the commit may still want an
	// entity: the last chunk is cut to it, so a batch of 100 leaves no
	// unused structs alive beside its entities.
	left int
	// names are the table's shared property names of the entity kept
	// before, by position (table.intern).
	names []string
	// hint is where in the tree the commit's last operation went: a
	// batch's entities, one partition in key order as clients mostly send
	// them, then cost a few comparisons each rather than a full search.
	hint btree.PathHint
	// undo, in a transaction, records its steps so that a failure can
	// take them back; nil otherwise.
	undo []step
}

// step is one change a transaction made to the tree: the entity it set
// (nil for a delete) and the one that held the key before (nil for none).
type step struct {
	set, prev *entity.Entity
}

// did records, in a transaction, that set was stored (nil: the key
// deleted) where prev was (nil: nothing).
func (k *keeper) did(set, prev *entity.Entity) {
	if k.undo != nil {
		k.undo = append(k.undo, step{set, prev})
	}
}

// rollback takes back the steps of a failed transaction, last first: tr
// then holds the entities it held before (its nodes may be split
// otherwise).
func (k *keeper) rollback(tr *tree) {
	for i := len(k.undo) - 1; i >= 0; i-- {
		if s := k.undo[i]; s.prev != nil {
			tr.SetHint(itemOf(s.prev), &k.hint)
		} else {
			tr.DeleteHint(itemOf(s.set), &k.hint)
		}
	}
	k.undo = k.undo[:0]
}

// keepEntities is how many entity structs a chunk holds (about 4 KiB).
const keepEntities = 32

// newKeeper readies a commit of ops operations, a transaction when tx.
func newKeeper(ops int, tx bool) keeper {
	k := keeper{shared: ops > 1, left: ops}
	if tx {
		k.undo = make([]step, 0, ops)
	}
	return k
}

// entity returns a new, empty entity.
func (k *keeper) entity() *entity.Entity {
	if !k.shared {
		return &entity.Entity{}
	}
	if len(k.entities) == 0 {
		k.entities = make([]entity.Entity, max(1, min(k.left, keepEntities)))
	}
	k.left--
	e := &k.entities[0]
	k.entities = k.entities[1:]
	return e
}

// lastNames is where table.intern remembers the names of the entity before:
// nil, for nothing to remember, in a commit of one entity.
func (k *keeper) lastNames() *[]string {
	if !k.shared {
		return nil
	}
	return &k.names
}

// keep readies an entity the store is about to hold, its Timestamp final:
// its size measured once, so a query page adds it up without walking the
// properties, which also marks it kept (read-only), so that the first
// reader to write it out caches its encoding for the others.
func (k *keeper) keep(e *entity.Entity) {
	e.KeptSize = e.Size()
}

// unkeep drops e, the entity k.entity last returned, which the commit did
// not store after all; nothing else holds it.
func (k *keeper) unkeep(e *entity.Entity) {
	*e = entity.Entity{}
}
