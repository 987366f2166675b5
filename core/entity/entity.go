package entity

import (
	"github.com/tableplay/tableplay/core/edm"
)

// Property is one custom property of an entity.
type Property struct {
	// Name is the property name as the client wrote it.
	Name string
	// Value is the typed value.
	Value edm.Value
}

// Entity is a stored entity: its keys, the server-set Timestamp and its custom
// properties in the order the client first wrote them.
type Entity struct {
	// PartitionKey is the first part of the entity's key.
	PartitionKey string
	// RowKey is the second part of the key, unique within the partition.
	RowKey string
	// Timestamp is the time of the last write, set by the store and never
	// taken from the client; the ETag is derived from it.
	Timestamp edm.Ticks
	// Properties are the custom properties, without the keys and Timestamp.
	Properties []Property
	// KeptSize, when not 0, is Size() as the store measured it when it
	// kept the entity (an entity the store returns, read out of its
	// packed form or just written), so that nothing walks every property
	// again to measure it. It also marks the entity as kept: read-only from
	// then on (readers may share it). Clone drops it.
	KeptSize int
	// slot and cache are where the encoded members of an entity read
	// from the store are cached (CacheIn, CacheMembers); nil for any
	// other entity.
	slot  *MemberSlot
	cache *MemberCache
}

// Names of the system properties.
const (
	PartitionKey = "PartitionKey"
	RowKey       = "RowKey"
	Timestamp    = "Timestamp"
)

// Get returns the named property's value, system properties included, and
// whether the entity has it.
func (e *Entity) Get(name string) (edm.Value, bool) {
	switch name {
	case PartitionKey:
		return edm.StringValue(e.PartitionKey), true
	case RowKey:
		return edm.StringValue(e.RowKey), true
	case Timestamp:
		return edm.DateTimeValue(e.Timestamp), true
	}
	for _, p := range e.Properties {
		if p.Name == name {
			return p.Value, true
		}
	}
	return edm.Value{}, false
}

// Clone returns a copy whose property slice can be changed independently
// (values are immutable and shared), neither kept nor with cached members.
func (e *Entity) Clone() *Entity {
	return &Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp,
		Properties: append([]Property(nil), e.Properties...)}
}

// Merge returns a new entity: e's properties with patch's laid over them —
// new names appended, existing names replaced in place (their type may
// change). Keys and Timestamp come from e.
func (e *Entity) Merge(patch *Entity) *Entity {
	// The merged entity is stored: its properties get exactly the room
	// they take, not an append's doubling.
	added := 0
	for _, p := range patch.Properties {
		if _, ok := e.Get(p.Name); !ok || isSystem(p.Name) {
			added++
		}
	}
	out := &Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp,
		Properties: append(make([]Property, 0, len(e.Properties)+added), e.Properties...)}
	for _, p := range patch.Properties {
		replaced := false
		for i := range out.Properties {
			if out.Properties[i].Name == p.Name {
				out.Properties[i].Value = p.Value
				replaced = true
				break
			}
		}
		if !replaced {
			out.Properties = append(out.Properties, p)
		}
	}
	return out
}

// isSystem reports the names Get answers from the entity's own fields.
func isSystem(name string) bool { return name == PartitionKey || name == RowKey || name == Timestamp }

// PropertyCount is the number of properties the service counts against its
// limit of 255: the custom ones plus PartitionKey, RowKey and Timestamp.
func (e *Entity) PropertyCount() int { return len(e.Properties) + 3 }

// Size is the entity's size by the published formula (F-SIZE-FORMULA):
// 4 + 2×(len(PartitionKey)+len(RowKey)) + Σ (8 + 2×len(name) + size(value))
// over the custom properties, lengths in UTF-16 code units. The server-kept
// Timestamp is not counted.
func (e *Entity) Size() int {
	if e.KeptSize > 0 {
		return e.KeptSize
	}
	n := 4 + 2*(edm.UTF16Len(e.PartitionKey)+edm.UTF16Len(e.RowKey))
	for _, p := range e.Properties {
		n += 8 + 2*edm.UTF16Len(p.Name) + p.Value.Size()
	}
	return n
}
