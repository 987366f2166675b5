package store

import (
	"sync"
	"sync/atomic"

	"github.com/tidwall/btree"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// tree is the ordered set of a table's entities.
type tree = btree.BTreeG[*entity.Entity]

// keyLess orders entities by PartitionKey, then RowKey, by UTF-16 code unit.
func keyLess(a, b *entity.Entity) bool {
	if c := edm.CompareStrings(a.PartitionKey, b.PartitionKey); c != 0 {
		return c < 0
	}
	return edm.CompareStrings(a.RowKey, b.RowKey) < 0
}

func newTree() *tree { return btree.NewBTreeGOptions(keyLess, btree.Options{NoLocks: true}) }

// table is one table. The writer's tree is private to the writer lock;
// readers get an immutable copy, made lazily after a write (a B-tree Copy is
// O(1): later writes clone the nodes they touch).
type table struct {
	name    string    // as created: names compare case-insensitively, keep their case
	created edm.Ticks // for NextTableName tokens

	mu   sync.Mutex // one writer at a time
	work *tree      // guarded by mu
	last edm.Ticks  // guarded by mu: the latest Timestamp written

	snap atomic.Pointer[tree] // readers' snapshot; nil after a write
}

func newTable(name string, created edm.Ticks) *table {
	return &table{name: name, created: created, work: newTree()}
}

// view returns a consistent, immutable snapshot of the table.
func (t *table) view() *tree {
	if s := t.snap.Load(); s != nil {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.snap.Load(); s != nil {
		return s
	}
	s := t.work.Copy()
	t.snap.Store(s)
	return s
}

// published records that work changed: the next reader takes a new copy.
// Call with mu held.
func (t *table) published() { t.snap.Store(nil) }

func probe(pk, rk string) *entity.Entity { return &entity.Entity{PartitionKey: pk, RowKey: rk} }
