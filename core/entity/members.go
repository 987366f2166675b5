package entity

import "sync/atomic"

// Members are an entity written as the OData JSON members of a
// minimal-metadata body (odata.etag, the keys, Timestamp, then each property
// after its type annotation where one is needed), and JSON[Props:] its
// custom properties alone, as full metadata writes them too.
type Members struct {
	// JSON is the members, without the braces around them.
	JSON []byte
	// Props is the offset in JSON where the custom properties begin.
	Props int
}

// MemberSlot is where one stored entity's encoded members are cached: the
// store keeps one beside each entity it holds and points the entities it
// reads out at it. The zero value is empty.
type MemberSlot struct {
	m atomic.Pointer[Members]
}

// released marks a slot whose entity the store no longer holds: nothing
// is cached there again (a reader of an older view may still write the
// entity out; it encodes it afresh).
var released = &Members{}

// MemberCache bounds the bytes of the encoded members cached in its slots:
// an encoding that would pass the limit is not kept, so that reading many
// entities cannot grow the heap by their encodings beyond it.
type MemberCache struct {
	limit int64
	used  atomic.Int64
}

// NewMemberCache returns a cache that keeps at most limit bytes of
// encodings.
func NewMemberCache(limit int64) *MemberCache { return &MemberCache{limit: limit} }

// Used is the bytes of encodings the cache holds.
func (c *MemberCache) Used() int64 { return c.used.Load() }

// cost is what m holds in memory: its bytes and its struct.
func cost(m *Members) int64 { return int64(cap(m.JSON)) + 32 }

// Release empties the slot of an entity the store no longer holds and
// returns its encoding's bytes to c; later writers cache nothing there.
func (s *MemberSlot) Release(c *MemberCache) {
	if m := s.m.Swap(released); m != nil && m != released {
		c.used.Add(-cost(m))
	}
}

// CacheIn marks e as read from a stored entity whose encoded members are
// cached in slot, within c: CacheMembers keeps them there, CachedMembers
// finds them.
func (e *Entity) CacheIn(slot *MemberSlot, c *MemberCache) { e.slot, e.cache = slot, c }

// CachedMembers returns the members cached for e, nil when none are.
func (e *Entity) CachedMembers() *Members {
	if e.slot == nil {
		return nil
	}
	if m := e.slot.m.Load(); m != released {
		return m
	}
	return nil
}

// CacheMembers keeps m, e's encoded members, for the next reader to copy
// instead of encoding e again; only for an entity read from the store
// (CacheIn) while its cache has room: otherwise it does nothing. Readers
// encoding one entity at the same time may race; the first keeps its
// copy (the copies are the same). The encoding is made when an entity is
// first written out rather than when it is stored, so that entities
// loaded in bulk and not yet read cost no encoding.
func (e *Entity) CacheMembers(m *Members) {
	if e.slot == nil {
		return
	}
	n := cost(m)
	if e.cache.used.Add(n) > e.cache.limit {
		e.cache.used.Add(-n)
		return
	}
	if !e.slot.m.CompareAndSwap(nil, m) {
		e.cache.used.Add(-n)
	}
}
