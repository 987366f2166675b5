package store

import (
	"encoding/binary"
	"strings"
	"sync/atomic"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// row is a stored entity packed: its Timestamp, its size by the formula,
// the slot its encoded members are cached in, and one immutable string of
// bytes, data:
//
//	uvarint len(PartitionKey), PartitionKey, uvarint len(RowKey), RowKey,
//	uvarint count of properties, then each property:
//	  uvarint name reference: index<<1 into the table's names (names), or
//	    len<<1|1 followed by the name's bytes for a name past them
//	  the value as a snapshot block holds it (appendBlockValue): a type
//	    code byte, then the value
//
// A row is two allocations (the struct, 40 bytes, and data; a batch's
// rows share chunks of structs and one string of data) where an entity was
// an entity struct, a property slice and its strings, with two pointers
// (data and the cached encoding) for the collector to trace rather than
// one a property. Values are read out of data without copies
// (edm.BytesValue).
type row struct {
	data    string
	ts      edm.Ticks
	size    int32 // entity.Entity.Size(): an entity is at most 1 MiB
	members entity.MemberSlot
}

// names is a table's append-only dictionary of property names, which rows
// refer to by index: up to maxInterned names, after which a row writes the
// name inline. The writer (under the table's lock) appends; readers load
// the list without a lock. A new index is published before the tree that
// first uses it, so a reader that loads the list after its view sees every
// index the view's rows use.
type names struct {
	index map[string]uint32 // writer's, under the table's lock
	list  []string          // writer's; readers' copies share its array
	pub   atomic.Pointer[[]string]
}

// lookup returns name's index, adding it while there is room; ok is false
// for a name past the dictionary. Call with the table's lock held.
func (n *names) lookup(name string) (uint32, bool) {
	if i, ok := n.index[name]; ok {
		return i, true
	}
	if len(n.list) >= maxInterned {
		return 0, false
	}
	if n.index == nil {
		n.index = make(map[string]uint32)
	}
	name = strings.Clone(name) // not a slice of a request body
	i := uint32(len(n.list))
	n.index[name] = i
	n.list = append(n.list, name)
	l := n.list[:len(n.list):len(n.list)] // a reader's append copies, never writes into the writer's array
	n.pub.Store(&l)
	return i, true
}

// load returns the dictionary as readers see it.
func (n *names) load() []string {
	if l := n.pub.Load(); l != nil {
		return *l
	}
	return nil
}

// packer packs entities into rows for one table; its buffer is reused.
// last holds the name indexes of the entity packed before by position
// (+1; 0 for none): a batch's entities mostly repeat one another's names,
// found then without a lookup.
type packer struct {
	buf  []byte
	of   *names // the dictionary last refers to
	last []uint32
}

// maxKeptBuffer bounds the buffer a packer keeps between rows: one very
// large entity does not leave its table holding a buffer its size.
const maxKeptBuffer = 64 << 10

// pack makes e, with Timestamp ts and formula size size, a row, in r when
// not nil; names are the table's (its lock held).
func (p *packer) pack(n *names, e *entity.Entity, ts edm.Ticks, size int, r *row) *row {
	b := p.appendRow(p.buf[:0], n, e)
	if r == nil {
		r = new(row)
	}
	r.data, r.ts, r.size = string(b), ts, int32(size)
	p.keep(b)
	return r
}

// keep keeps b, the buffer last used, for the next row, unless it grew
// large.
func (p *packer) keep(b []byte) {
	if p.buf = b; cap(b) > maxKeptBuffer {
		p.buf = nil
	}
}

// appendRow appends the data of e's row to b; names are the table's (its
// lock held).
func (p *packer) appendRow(b []byte, n *names, e *entity.Entity) []byte {
	if p.of != n {
		p.of, p.last = n, p.last[:0]
	}
	b = appendBlockString(b, e.PartitionKey)
	b = appendBlockString(b, e.RowKey)
	b = binary.AppendUvarint(b, uint64(len(e.Properties)))
	for i := range e.Properties {
		pr := &e.Properties[i]
		var idx uint32
		ok := false
		if i < len(p.last) && p.last[i] != 0 && n.list[p.last[i]-1] == pr.Name {
			idx, ok = p.last[i]-1, true
		} else {
			idx, ok = n.lookup(pr.Name)
			if len(p.last) <= i {
				p.last = append(p.last, make([]uint32, i+1-len(p.last))...)
			}
			p.last[i] = 0
			if ok {
				p.last[i] = idx + 1
			}
		}
		if ok {
			b = binary.AppendUvarint(b, uint64(idx)<<1)
		} else {
			b = binary.AppendUvarint(b, uint64(len(pr.Name))<<1|1)
			b = append(b, pr.Name...)
		}
		// Every value the store holds has a known type (the entity rules).
		b, _ = appendBlockValue(b, pr.Value)
	}
	return b
}

// rowReader reads a row's data, which the store itself wrote: no checks.
type rowReader struct {
	s string
	i int
}

func (r *rowReader) uvarint() uint64 {
	var x uint64
	var shift uint
	for {
		c := r.s[r.i]
		r.i++
		if c < 0x80 {
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
}

func (r *rowReader) varint() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (r *rowReader) str() string {
	n := int(r.uvarint())
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

// name reads a name reference.
func (r *rowReader) name(dict []string) string {
	ref := r.uvarint()
	if ref&1 == 0 {
		return dict[ref>>1]
	}
	n := int(ref >> 1)
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

// keys returns the row's PartitionKey and RowKey.
func (r *row) keys() (pk, rk string) {
	rd := rowReader{s: r.data}
	pk = rd.str()
	return pk, rd.str()
}

// pk returns the row's PartitionKey.
func (r *row) pk() string {
	rd := rowReader{s: r.data}
	return rd.str()
}

// rk returns the row's RowKey.
func (r *row) rk() string {
	rd := rowReader{s: r.data}
	rd.i += int(rd.uvarint())
	return rd.str()
}

// count returns the row's number of properties, and a reader at the first.
func (r *row) count() (int, rowReader) {
	rd := rowReader{s: r.data}
	rd.i += int(rd.uvarint())
	rd.i += int(rd.uvarint())
	return int(rd.uvarint()), rd
}

// decode fills e with the row's entity, its properties in props (of the
// row's count's length); dict is the table's names as loaded after the
// view the row came from. The entity's strings are the row's: no copies.
func (r *row) decode(dict []string, e *entity.Entity, props []entity.Property) {
	rd := rowReader{s: r.data}
	pk := rd.str()
	rk := rd.str()
	n := int(rd.uvarint())
	for i := 0; i < n; i++ {
		props[i].Name = rd.name(dict)
		props[i].Value = rd.value()
	}
	*e = entity.Entity{PartitionKey: pk, RowKey: rk, Timestamp: r.ts, Properties: props[:n:n], KeptSize: int(r.size)}
}

// entity returns the row's entity, its members cached within c (nil: one
// that caches nothing, as a snapshot's export): the one cached with its
// members, or a new one.
func (r *row) entity(dict []string, c *entity.MemberCache) *entity.Entity {
	if c != nil {
		if e := r.members.Entity(); e != nil {
			return e
		}
	}
	n, _ := r.count()
	e := new(entity.Entity)
	r.decode(dict, e, make([]entity.Property, n))
	if c != nil {
		e.CacheIn(&r.members, c)
	}
	return e
}

// entities returns the rows' entities: those cached with their members,
// the others decoded, a few allocations for them all rather than two each.
func entities(rows []*row, dict []string, c *entity.MemberCache) []*entity.Entity {
	out := make([]*entity.Entity, len(rows))
	total, missing := 0, 0
	for i, r := range rows {
		if out[i] = r.members.Entity(); out[i] == nil {
			n, _ := r.count()
			total += n
			missing++
		}
	}
	if missing == 0 {
		return out
	}
	es := make([]entity.Entity, missing)
	props := make([]entity.Property, total)
	for i, r := range rows {
		if out[i] != nil {
			continue
		}
		n, _ := r.count()
		e := &es[0]
		es = es[1:]
		r.decode(dict, e, props[:n])
		e.CacheIn(&r.members, c)
		props = props[n:]
		out[i] = e
	}
	return out
}

// record reads a row's properties by name for a filter (filter.Record),
// without decoding the row: it walks the properties to the one asked for.
// Names asked for are resolved to dictionary indexes once.
type record struct {
	r    *row
	dict []string
	memo []memoName
}

// memoName is a name a filter asked for and its dictionary index, -1 for
// none (it can then only be written inline).
type memoName struct {
	name string
	idx  int
}

// Get returns the named property's value, system properties included.
func (x *record) Get(name string) (edm.Value, bool) {
	switch name {
	case entity.PartitionKey:
		return edm.StringValue(x.r.pk()), true
	case entity.RowKey:
		return edm.StringValue(x.r.rk()), true
	case entity.Timestamp:
		return edm.DateTimeValue(x.r.ts), true
	}
	want := x.resolve(name)
	n, rd := x.r.count()
	for i := 0; i < n; i++ {
		ref := rd.uvarint()
		if ref&1 == 0 {
			if int(ref>>1) == want {
				return rd.value(), true
			}
		} else {
			l := int(ref >> 1)
			s := rd.s[rd.i : rd.i+l]
			rd.i += l
			if s == name {
				return rd.value(), true
			}
		}
		rd.skipValue()
	}
	return edm.Value{}, false
}

// resolve returns name's dictionary index, -1 for none.
func (x *record) resolve(name string) int {
	for _, m := range x.memo {
		if m.name == name {
			return m.idx
		}
	}
	idx := -1
	for i, d := range x.dict {
		if d == name {
			idx = i
			break
		}
	}
	x.memo = append(x.memo, memoName{name, idx})
	return idx
}

// remap returns, for rows whose name references index names (a snapshot
// block's), the references into t's dictionary (name index<<1, or 1 for a
// name written inline), and whether they are the same as the block's, so
// that its rows can be kept as they are. Call it with t's lock held, or
// before t is shared (a snapshot's load).
func (t *table) remap(names []string) ([]uint64, bool) {
	out := make([]uint64, len(names))
	same := true
	for i, n := range names {
		idx, ok := t.names.lookup(n)
		if !ok {
			out[i], same = 1, false
			continue
		}
		out[i] = uint64(idx) << 1
		same = same && idx == uint32(i)
	}
	return out, same
}

// rename rewrites rw's name references from names's indexes to refs (as
// remap made them).
func (t *table) rename(rw *row, names []string, refs []uint64) {
	n, rd := rw.count()
	b := append(t.packer.buf[:0], rw.data[:rd.i]...)
	for i := 0; i < n; i++ {
		ni := rd.uvarint() >> 1
		if ref := refs[ni]; ref&1 == 0 {
			b = binary.AppendUvarint(b, ref)
		} else {
			b = binary.AppendUvarint(b, uint64(len(names[ni]))<<1|1)
			b = append(b, names[ni]...)
		}
		at := rd.i
		rd.skipValue()
		b = append(b, rw.data[at:rd.i]...)
	}
	rw.data = string(b)
	t.packer.keep(b)
}
