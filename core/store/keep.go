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
	k := keeper{shared: ops > 1, left: ops, cache: t.cache}
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

// row returns a new, empty row. Each row is an allocation of its own,
// even in a batch: a row the store keeps holds nothing of another's, so
// one that outlives its batch keeps only itself (a chunk of row structs
// would keep its neighbours' data strings alive, as readers of older views
// may still read them).
func (k *keeper) row() *row {
	return new(row)
}

// prepack packs, for a batch, the rows its inserts will store into
// shared strings, a slice of one each: a few allocations rather than one a
// row. (An insert's row does not depend on the table's state: its
// properties keep the client's order, and its Timestamp is the row
// struct's.) A string is closed once it holds packChunk bytes, so a row
// that outlives its batch's others (99 of 100 deleted) keeps at most that
// much of its neighbours' data alive, never the whole batch's. Call with
// t.mu held.
func (k *keeper) prepack(t *table, ops []Op) {
	if !k.shared {
		return
	}
	k.packed = make([]string, len(ops))
	ends := make([]int, len(ops))
	b := t.packer.buf[:0]
	from := 0 // the first operation of the string being packed
	cut := func(upto int) {
		all := string(b)
		start := 0
		for i := from; i < upto; i++ {
			k.packed[i], start = all[start:ends[i]], ends[i]
		}
		b, from = b[:0], upto
	}
	for i, op := range ops {
		if op.Kind == Insert && op.Entity != nil {
			b = t.packer.appendRow(b, &t.names, op.Entity)
		}
		ends[i] = len(b)
		if len(b) >= packChunk {
			cut(i + 1)
		}
	}
	if from < len(ops) {
		cut(len(ops))
	}
	t.packer.keep(b)
}

// packChunk is the size at which prepack closes a shared string: a dozen
// typical rows, so a batch of small entities still packs in a few
// allocations, and a large row stands alone.
const packChunk = 4 << 10

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
