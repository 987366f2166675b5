package entity

// Slab hands out the entities and property slices Check builds, from shared
// chunks: the hundred entities of a batch then cost a few allocations
// instead of two each, and their properties lie side by side in memory in
// the order they were written, which a later scan reads without a cache
// miss per entity. A chunk lives while any entity carved from it does, so
// chunks are kept small. The zero value is ready; a Slab is not for
// concurrent use.
type Slab struct {
	entities []Entity
	props    []Property
	// start is where the properties of the entity last handed out begin in
	// props, when carved says they come from it.
	start  int
	carved bool
	// names are the property names found valid in the drafts before, by
	// field position, with their lengths in UTF-16 units: the entities of
	// a batch mostly repeat one another's names, checked once then.
	names []checkedName
	// distinct are the field names of the last draft found to repeat no
	// name, in order.
	distinct []string
}

// distinctNames reports whether fields have the names, in order, of a
// draft found before to repeat none.
func (s *Slab) distinctNames(fields []Field) bool {
	if s == nil || len(fields) != len(s.distinct) || len(fields) == 0 {
		return false
	}
	for i := range fields {
		if fields[i].Name != s.distinct[i] {
			return false
		}
	}
	return true
}

// noteDistinct records the names of fields, a draft that repeats none.
func (s *Slab) noteDistinct(fields []Field) {
	if s == nil {
		return
	}
	s.distinct = grow(s.distinct, len(fields))
	for i := range fields {
		s.distinct[i] = fields[i].Name
	}
}

// checkedName is a property name that passed the name rules.
type checkedName struct {
	name string
	n    int // UTF-16 units
}

// checked reports whether name, at field position i, is the name found
// valid at that position before, and its length. A position no valid name
// was noted at holds the zero checkedName, whose empty name is not one
// found valid: "" is never taken as checked.
func (s *Slab) checked(i int, name string) (int, bool) {
	if s == nil || name == "" || i >= len(s.names) || s.names[i].name != name {
		return 0, false
	}
	return s.names[i].n, true
}

// noteChecked records that name, n UTF-16 units long, passed the name rules
// at field position i.
func (s *Slab) noteChecked(i int, name string, n int) {
	if s == nil {
		return
	}
	if len(s.names) <= i {
		s.names = grow(s.names, i+1)
	}
	s.names[i] = checkedName{name, n}
}

// Chunk sizes: a chunk of properties is about 24 KiB, a chunk of entities
// 3 KiB; an entity with more properties than a quarter chunk gets its own.
const (
	slabEntities = 32
	slabProps    = 512
)

// entity returns an empty entity with room for n properties, from s when s
// is not nil.
func (s *Slab) entity(n int) *Entity {
	if s == nil {
		return &Entity{Properties: make([]Property, 0, n)}
	}
	if len(s.entities) == 0 {
		s.entities = make([]Entity, slabEntities)
	}
	e := &s.entities[0]
	s.entities = s.entities[1:]
	s.carved = n <= slabProps/4
	if !s.carved {
		e.Properties = make([]Property, 0, n)
		return e
	}
	if cap(s.props)-len(s.props) < n {
		s.props = make([]Property, 0, slabProps)
	}
	s.start = len(s.props)
	s.props = s.props[:s.start+n]
	e.Properties = s.props[s.start : s.start : s.start+n] // capped: an append cannot reach the next entity's
	return e
}

// trim gives back the room that e, the entity entity last returned, left
// unused (its slots for the keys and for nulls).
func (s *Slab) trim(e *Entity) {
	if s == nil || !s.carved {
		return
	}
	n := len(e.Properties)
	s.props = s.props[:s.start+n]
	e.Properties = e.Properties[:n:n]
	s.carved = false
}

// grow returns s lengthened to n, reallocated (with room to spare) only when
// its capacity is short.
func grow[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	g := make([]T, n, max(16, 2*n))
	copy(g, s)
	return g
}
