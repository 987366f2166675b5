package store

import (
	"sync"
	"sync/atomic"

	"github.com/tidwall/btree"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// tree is the ordered set of a table's entities.
type tree = btree.BTreeG[item]

// item is a tree entry: the entity and the first bytes of its keys inline, so
// that most comparisons in a search touch only the node being searched (a
// large table does not fit in the CPU caches; following the entity and key
// pointers at every step would cost a cache miss each).
type item struct {
	pk, rk uint64 // key prefixes, see prefix
	e      *entity.Entity
}

func itemOf(e *entity.Entity) item { return item{prefix(e.PartitionKey), prefix(e.RowKey), e} }

// noPrefix marks a key whose first 8 bytes are not all ASCII: byte order and
// UTF-16 order agree only on ASCII, so such keys are compared in full.
const noPrefix = ^uint64(0)

// prefix packs the first 8 bytes of an ASCII key big-endian, zero-padded.
// Keys never hold U+0000 (a control character), so padding cannot tie with
// a real character.
func prefix(s string) uint64 {
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 8
		if i < len(s) {
			if s[i] >= 0x80 {
				return noPrefix
			}
			p |= uint64(s[i])
		}
	}
	return p
}

// compareKey orders one key of two items: by prefix when both have one and
// they differ, else in full by UTF-16 code unit.
func compareKey(pa, pb uint64, a, b string) int {
	if pa != noPrefix && pb != noPrefix {
		if pa != pb {
			if pa < pb {
				return -1
			}
			return 1
		}
		if len(a) <= 8 && len(a) == len(b) {
			return 0
		}
	}
	return edm.CompareStrings(a, b)
}

// itemLess orders entities by PartitionKey, then RowKey, by UTF-16 code unit.
func itemLess(a, b item) bool {
	if c := compareKey(a.pk, b.pk, a.e.PartitionKey, b.e.PartitionKey); c != 0 {
		return c < 0
	}
	return compareKey(a.rk, b.rk, a.e.RowKey, b.e.RowKey) < 0
}

// keyLess orders two entities as the tree does.
func keyLess(a, b *entity.Entity) bool { return itemLess(itemOf(a), itemOf(b)) }

func newTree() *tree {
	return btree.NewBTreeGOptions(itemLess, btree.Options{NoLocks: true, Degree: 64})
}

// table is one table. The writer's tree is private to the writer lock;
// readers get an immutable copy, made lazily after a write (a B-tree Copy is
// O(1): later writes clone the nodes they touch).
type table struct {
	name    string    // as created: names compare case-insensitively, keep their case
	created edm.Ticks // for NextTableName tokens

	mu   sync.Mutex         // one writer at a time
	work *tree              // guarded by mu
	last edm.Ticks          // guarded by mu: the latest Timestamp written
	acl  []SignedIdentifier // guarded by mu: stored access policies

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

// probe is a search key for the tree.
func probe(pk, rk string) item {
	return item{prefix(pk), prefix(rk), &entity.Entity{PartitionKey: pk, RowKey: rk}}
}
