package store

import (
	"encoding/binary"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/btree"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// tree is the ordered set of a table's entities.
type tree = btree.BTreeG[item]

// item is a tree entry: the entity's row and a packed form of its keys
// inline, so that most comparisons in a search touch only the node being
// searched (a large table does not fit in the CPU caches; following the row
// pointer at every step would cost a cache miss each). An item is 24 bytes
// with one pointer: a million entities' nodes are a few tens of megabytes
// for the collector to scan, not twice that.
type item struct {
	pk, rk uint64 // packed keys, see prefix
	r      *row
}

// itemOf is the tree entry of r, whose keys are pk and rk.
func itemOf(r *row, pk, rk string) item { return item{prefix(pk), prefix(rk), r} }

// rowItem is the tree entry of r.
func rowItem(r *row) item {
	pk, rk := r.keys()
	return itemOf(r, pk, rk)
}

// noPrefix marks a key whose first 8 bytes are not all ASCII: byte order and
// UTF-16 order agree only on ASCII, so such keys are compared in full.
const noPrefix = ^uint64(0)

// prefix packs an ASCII key's first 8 characters at 7 bits each, zero-padded
// and big-endian, above a low byte holding min(len, 9). Packed keys order as
// their keys do: equal characters with different lengths mean the shorter is
// a prefix of the longer (padding equals only U+0000 or nothing), and the
// length byte puts it first. Only equal packed keys of 9 or more characters
// need the full keys.
func prefix(s string) uint64 {
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 7
		if i < len(s) {
			if s[i] >= 0x80 {
				return noPrefix
			}
			p |= uint64(s[i])
		}
	}
	return p<<8 | uint64(min(len(s), 9))
}

// quickCompare orders two packed keys; ok is false when only the full keys
// can tell.
func quickCompare(pa, pb uint64) (c int, ok bool) {
	switch {
	case pa == noPrefix || pb == noPrefix:
		return 0, false
	case pa < pb:
		return -1, true
	case pa > pb:
		return 1, true
	}
	return 0, pa&0xff <= 8
}

// itemLess orders entities by PartitionKey, then RowKey, by UTF-16 code unit.
// The entity is read only when the packed keys cannot tell.
func itemLess(a, b item) bool {
	c, ok := quickCompare(a.pk, b.pk)
	if !ok {
		c = edm.CompareStrings(a.r.pk(), b.r.pk())
	}
	if c != 0 {
		return c < 0
	}
	if c, ok = quickCompare(a.rk, b.rk); !ok {
		c = edm.CompareStrings(a.r.rk(), b.r.rk())
	}
	return c < 0
}

// keyLess orders two entities as the tree does.
func keyLess(a, b *entity.Entity) bool {
	return itemLess(probe(a.PartitionKey, a.RowKey), probe(b.PartitionKey, b.RowKey))
}

// compacted returns a copy of tr whose nodes hold no unused room. A tree
// filled in key order, as a snapshot loads, splits each full node in
// half, and the left half keeps the whole array it was cut from: about 24
// unused bytes an entity. Copying a node sizes its array to its items, and
// replacing an item copies the nodes on its path, so setting every item
// again into a copy copies every node once.
func compacted(tr *tree) *tree {
	c := tr.Copy()
	var hint btree.PathHint
	tr.Scan(func(it item) bool {
		c.SetHint(it, &hint)
		return true
	})
	return c
}

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
	// dropped is set, under mu, when the table leaves the account: a writer
	// that looked the table up before must not change it afterwards (its
	// change would be lost, and logged after the deletion).
	dropped bool

	snap atomic.Pointer[tree] // readers' snapshot; nil after a write

	// names are the property names the table's rows refer to by index,
	// written under mu (packing a row), read without it.
	names   names
	packer  packer            // guarded by mu: its buffer serves every commit
	scratch []entity.Property // guarded by mu: a merge's current properties
	key     row               // guarded by mu: a write's search key
	// cache bounds the encoded members the table's rows keep.
	cache *entity.MemberCache
}

// maxInterned bounds a table's dictionary of property names.
const maxInterned = 4096

// cacheBudget is the bytes of encoded members a table keeps for the rows
// its query pages and point reads write out: enough for a few thousand
// rows read again and again, not a copy of a large table read once.
const cacheBudget = 16 << 20

// pack makes e, a checked entity with Timestamp ts, a row of t, in r when
// not nil (a new row otherwise). Call with t.mu held, or before t is
// shared.
func (t *table) pack(e *entity.Entity, ts edm.Ticks, r *row) *row {
	size := e.KeptSize
	if size <= 0 {
		size = e.Size()
	}
	return t.packer.pack(&t.names, e, ts, size, r)
}

// release lets go of r, a row the table no longer holds, and of its
// cached encoding.
func (t *table) release(r *row) {
	if r != nil {
		r.members.Release(t.cache)
	}
}

func newTable(name string, created edm.Ticks) *table {
	return &table{name: name, created: created, work: newTree(), cache: entity.NewMemberCache(cacheBudget)}
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

// drop marks the table deleted and runs then (which records the deletion)
// with its writer lock held, so no write to it is recorded after it.
func (t *table) drop(then func() uint64) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dropped = true
	return then()
}

// published records that work changed: the next reader takes a new copy.
// Call with mu held.
func (t *table) published() { t.snap.Store(nil) }

// probe is a search key for the tree.
func probe(pk, rk string) item { return probeIn(new(row), pk, rk) }

// probeIn is probe with r as the key's row.
func probeIn(r *row, pk, rk string) item {
	var b strings.Builder // one allocation: the string is the builder's
	var n [binary.MaxVarintLen64]byte
	b.Grow(len(pk) + len(rk) + 2*binary.MaxVarintLen64)
	b.Write(binary.AppendUvarint(n[:0], uint64(len(pk))))
	b.WriteString(pk)
	b.Write(binary.AppendUvarint(n[:0], uint64(len(rk))))
	b.WriteString(rk)
	r.data = b.String()
	return itemOf(r, pk, rk)
}
