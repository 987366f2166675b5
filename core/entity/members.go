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
	// entity is the entity these members encode, kept with them by
	// CacheMembers: a store reading its entity again returns it rather
	// than decoding it again.
	entity *Entity
}

// MemberSlot is where one stored entity's encoded members are cached: the
// store keeps one beside each entity it holds and points the entities it
// reads out at it. The zero value is empty.
type MemberSlot struct {
	m atomic.Pointer[Members]
}

// MemberCache bounds the bytes of the encoded members cached in its slots:
// an encoding that would pass the limit is not kept, so that reading many
// entities cannot grow the heap by their encodings beyond it.
type MemberCache struct {
	limit int64
	used  atomic.Int64
	// released fills the slot of an entity the store no longer holds:
	// nothing is cached there again (a reader of an older view may still
	// write the entity out; it encodes it afresh). It holds no entity, as
	// no encoding kept in a slot does.
	released Members
}

// held reports whether m is an encoding kept in a slot (not nil, not a
// cache's released).
func (m *Members) held() bool { return m != nil && m.entity != nil }

// NewMemberCache returns a cache that keeps at most limit bytes of
// encodings.
func NewMemberCache(limit int64) *MemberCache { return &MemberCache{limit: limit} }

// Used is the bytes of encodings the cache holds.
func (c *MemberCache) Used() int64 { return c.used.Load() }

// cost is what m holds in memory: its bytes, its struct and its entity's
// struct and properties (their strings are the store's).
func cost(m *Members) int64 {
	n := int64(cap(m.JSON)) + 48
	if m.entity != nil {
		n += 96 + 32*int64(cap(m.entity.Properties))
	}
	return n
}

// Entity returns the entity cached in the slot with its members, nil when
// none is: the store's entity as read out before, read-only.
func (s *MemberSlot) Entity() *Entity {
	if m := s.m.Load(); m.held() {
		return m.entity
	}
	return nil
}

// Release empties the slot of an entity the store no longer holds and
// returns its encoding's bytes to c; later writers cache nothing there.
func (s *MemberSlot) Release(c *MemberCache) {
	if m := s.m.Swap(&c.released); m.held() {
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
	if m := e.slot.m.Load(); m.held() {
		return m
	}
	return nil
}

// CanCache reports whether CacheMembers would keep e's members now: e was
// read from the store, nothing is cached for it yet and its cache has room.
// An encoder asks first, so as not to encode apart what it would not keep.
func (e *Entity) CanCache() bool {
	return e.slot != nil && e.slot.m.Load() == nil && e.cache.used.Load() < e.cache.limit
}

// CacheMembers keeps m, e's encoded members, and a copy of e, for the next
// reader to copy instead of decoding and encoding e again; only for an
// entity read from the store (CacheIn) while its cache has room: otherwise
// it does nothing. m must be new, not yet shared. Readers
// encoding one entity at the same time may race; the first keeps its
// copy (the copies are the same). The encoding is made when an entity is
// first written out rather than when it is stored, so that entities
// loaded in bulk and not yet read cost no encoding.
func (e *Entity) CacheMembers(m *Members) {
	if e.slot == nil || e.slot.m.Load() != nil {
		return
	}
	// The entity is kept too, in its own memory: e may be one of a page's
	// entities cut from a shared chunk, which would keep the whole chunk.
	m.entity = &Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp,
		Properties: append([]Property(nil), e.Properties...), KeptSize: e.KeptSize, slot: e.slot, cache: e.cache}
	n := cost(m)
	if e.cache.used.Add(n) > e.cache.limit {
		e.cache.used.Add(-n)
		return
	}
	if !e.slot.m.CompareAndSwap(nil, m) {
		e.cache.used.Add(-n)
	}
}
