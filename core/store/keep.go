package store

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
)

// keeper readies the entities one commit stores. For a commit of several
// operations (a batch) it takes their structs and their encoded members
// from shared chunks: a few allocations instead of two per entity, and
// entities that lie side by side in memory, as a later scan likes them. A
// chunk lives while any entity in it does, so chunks are small. The zero
// value allocates each entity on its own.
type keeper struct {
	shared   bool
	entities []entity.Entity
	encoded  []byte
}

// Chunk sizes: 32 entity structs (about 3 KiB) and 16 KiB of members (a
// few dozen typical entities); an entity whose members would take more than
// a quarter of a chunk gets its own.
const (
	keepEntities = 32
	keepEncoded  = 16 << 10
)

func newKeeper(ops int) keeper { return keeper{shared: ops > 1} }

// entity returns a new, empty entity.
func (k *keeper) entity() *entity.Entity {
	if !k.shared {
		return &entity.Entity{}
	}
	if len(k.entities) == 0 {
		k.entities = make([]entity.Entity, keepEntities)
	}
	e := &k.entities[0]
	k.entities = k.entities[1:]
	return e
}

// keep readies an entity the store is about to hold, its Timestamp final:
// its members encoded once, so reads copy them, and its size measured once,
// so a query page adds it up without walking the properties.
func (k *keeper) keep(e *entity.Entity) {
	e.KeptSize = e.Size()
	hint := odata.MembersHint(e)
	if !k.shared || hint > keepEncoded/4 {
		e.Encoded, e.EncodedProps = odata.Members(e)
		return
	}
	if cap(k.encoded)-len(k.encoded) < hint {
		k.encoded = make([]byte, 0, keepEncoded)
	}
	start := len(k.encoded)
	var props int
	k.encoded, props = odata.AppendMembers(k.encoded, e)
	// Capped, so that nothing appended to one entity's members can reach
	// the next's (were the hint short, the chunk grew into a new array and
	// this entity's slice is still whole).
	e.Encoded = k.encoded[start:len(k.encoded):len(k.encoded)]
	e.EncodedProps = props
}
