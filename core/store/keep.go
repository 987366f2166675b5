package store

import (
	"github.com/tidwall/btree"

	"github.com/tableplay/tableplay/core/entity"
)

// keeper readies the rows one commit stores. For a commit of several
// operations (a batch) it takes the entities it returns from shared
// chunks: a few allocations instead of one per entity. The zero value
// allocates each entity on its own.
type keeper struct {
	shared   bool
	entities []entity.Entity
	// left is how many operations of the commit may still want an
	// entity: the last chunk is cut to it, so a batch of 100 leaves no
	// unused structs alive beside its entities.
	left int
	// rows is the chunk a batch's row structs are cut from, as entities
	// are; rowsLeft is left's count for them.
	rows     []row
	rowsLeft int
	// packed is, in a batch, the data of each insert's row, packed ahead
	// into one string (prepack); op is the operation being applied.
	packed []string
	op     int
	// hint is where in the tree the commit's last operation went: a
	// batch's entities, one partition in key order as clients mostly send
	// them, then cost a few comparisons each rather than a full search.
	hint btree.PathHint
	// undo, in a transaction, records its steps so that a failure can
	// take them back; nil otherwise.
	undo []step
	// cache is the table's: a row the commit replaces or deletes gives
	// its cached encoding back, at once outside a transaction, once the
	// transaction holds in one (a failed one puts the rows back).
	cache *entity.MemberCache
}

// step is one change a transaction made to the tree: the row it set (nil
// for a delete) and the one that held the key before (nil for none).
type step struct {
	set, prev *row
}

// did records that set was stored (nil: the key deleted) where prev was
// (nil: nothing).
func (k *keeper) did(set, prev *row) {
	if k.undo != nil {
		k.undo = append(k.undo, step{set, prev})
	} else if prev != nil {
		prev.members.Release(k.cache)
	}
}

// rollback takes back the steps of a failed transaction, last first: tr
// then holds the rows it held before (its nodes may be split otherwise).
func (k *keeper) rollback(tr *tree) {
	for i := len(k.undo) - 1; i >= 0; i-- {
		if s := k.undo[i]; s.prev != nil {
			tr.SetHint(rowItem(s.prev), &k.hint)
		} else {
			tr.DeleteHint(rowItem(s.set), &k.hint)
		}
	}
	k.undo = k.undo[:0]
}

// held is called once a transaction's steps stand: the rows they replaced
// give their cached encodings back.
func (k *keeper) held() {
	for _, s := range k.undo {
		if s.prev != nil {
			s.prev.members.Release(k.cache)
		}
	}
}

// keepEntities is how many entity structs a chunk holds (about 4 KiB).
const keepEntities = 32

// newKeeper readies a commit of ops operations on t, a transaction when
// tx.
func newKeeper(t *table, ops int, tx bool) keeper {
	k := keeper{shared: ops > 1, left: ops, rowsLeft: ops, cache: t.cache}
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

// row returns a new, empty row: for a batch, from a chunk of at most
// keepEntities (a chunk lives while any of its rows does).
func (k *keeper) row() *row {
	if !k.shared {
		return new(row)
	}
	if len(k.rows) == 0 {
		k.rows = make([]row, max(1, min(k.rowsLeft, keepEntities)))
	}
	k.rowsLeft--
	r := &k.rows[0]
	k.rows = k.rows[1:]
	return r
}

// prepack packs, for a batch, the rows its inserts will store into one
// string, a slice of it each: one allocation rather than one a row. (An
// insert's row does not depend on the table's state: its properties keep
// the client's order, and its Timestamp is the row struct's.) The string
// lives while any of the batch's rows does, as the chunks do. Call with
// t.mu held.
func (k *keeper) prepack(t *table, ops []Op) {
	if !k.shared {
		return
	}
	ends := make([]int, len(ops))
	b := t.packer.buf[:0]
	for i, op := range ops {
		if op.Kind == Insert && op.Entity != nil {
			b = t.packer.appendRow(b, &t.names, op.Entity)
		}
		ends[i] = len(b)
	}
	all := string(b)
	t.packer.keep(b)
	k.packed = make([]string, len(ops))
	start := 0
	for i, end := range ends {
		k.packed[i], start = all[start:end], end
	}
}

// prepacked returns the data prepack made for the operation being
// applied, "" for none.
func (k *keeper) prepacked() string {
	if k.op < len(k.packed) {
		return k.packed[k.op]
	}
	return ""
}

// keep readies an entity the store is about to hold, its Timestamp final:
// its size measured once, so a query page adds it up without walking the
// properties, which also marks it kept (read-only).
func (k *keeper) keep(e *entity.Entity) {
	e.KeptSize = e.Size()
}
