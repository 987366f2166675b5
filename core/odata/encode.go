package odata

import (
	"bytes"
	"math"
	"slices"
	"strconv"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/profile"
)

// Context says where a response body is written for: the account's base URL
// (no trailing slash, e.g. http://127.0.0.1:10002/devstoreaccount1), the
// account name (full metadata's odata.type), the table and the metadata level.
type Context struct {
	// Base is the account's URL, without a trailing slash.
	Base string
	// Account is the account name.
	Account string
	// Table is the table's name, for the metadata URL and entity links.
	Table string
	// Level is the metadata level the client asked for.
	Level Level
	// Emulator, when set, is how an emulator writes bodies differently
	// (F-AZURITE-TIMESTAMP, F-AZURITE-QUERY-METADATA, F-AZURITE-SELECT,
	// F-AZURITE-DOUBLE); nil for the service.
	Emulator *profile.Emulator
	// Style is the shape of the bodies: Azure Storage's (the zero value)
	// or Cosmos DB's (F-COSMOS-BODIES, cosmos.go).
	Style profile.BodyStyle
}

// Projection is a $select: the property names asked for and the text as the
// client wrote it (echoed into odata.metadata). A nil *Projection, or one with
// no names, selects everything.
type Projection struct {
	// Names are the property names selected.
	Names []string
	// Text is the $select as the client wrote it.
	Text string
}

func (p *Projection) all() bool { return p == nil || len(p.Names) == 0 }

// selection is a Projection read once for a body: which system properties
// it names, and its other names without repeats, looked up by a set when
// there are many, so that each entity costs one pass over its properties
// and one over those names however long the $select.
type selection struct {
	all        bool
	pk, rk, ts bool
	custom     []string       // the other names, each once, in the order given
	index      map[string]int // custom's positions, when it is long
	seen       []bool         // per entity: which custom names it has
}

// manyNames is the length of a $select past which its names are found by
// a set rather than by comparing each in turn.
const manyNames = 8

func (p *Projection) prepare() selection {
	s := selection{all: p.all()}
	if s.all {
		return s
	}
	for _, n := range p.Names {
		switch n {
		case entity.PartitionKey:
			s.pk = true
		case entity.RowKey:
			s.rk = true
		case entity.Timestamp:
			s.ts = true
		default:
			if s.index != nil {
				if _, dup := s.index[n]; dup {
					continue
				}
				s.index[n] = len(s.custom)
			} else if slices.Contains(s.custom, n) {
				continue
			}
			s.custom = append(s.custom, n)
			if s.index == nil && len(s.custom) > manyNames {
				s.index = make(map[string]int, len(p.Names))
				for i, c := range s.custom {
					s.index[c] = i
				}
			}
		}
	}
	s.seen = make([]bool, len(s.custom))
	return s
}

// find returns the position of a custom property name in the selection,
// -1 when it is not selected.
func (s *selection) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	return slices.Index(s.custom, name)
}

// AppendEntity appends a single-entity body (get entity, insert with
// return-content): odata.metadata ends in "/@Element".
func AppendEntity(b []byte, c *Context, e *entity.Entity, sel *Projection) []byte {
	if c.Style == profile.CosmosBodies {
		return appendCosmosEntity(b, c, e, sel)
	}
	if b == nil {
		b = make([]byte, 0, sizeHint(c, e))
	}
	b = append(b, '{')
	first := true
	if c.Level != NoMetadata {
		b = appendMetadataURL(b, c, "/@Element", sel)
		first = false
	}
	s := sel.prepare()
	b = appendEntityMembers(b, c, e, &s, first)
	return append(b, '}')
}

// sizeHint estimates an entity's body, so that it is written into one
// buffer.
func sizeHint(c *Context, e *entity.Entity) int {
	n := 160 + 2*len(c.Base) + 3*len(c.Table) + 3*(len(e.PartitionKey)+len(e.RowKey))
	if m := e.CachedMembers(); m != nil {
		n += len(m.JSON)
	} else {
		for _, p := range e.Properties {
			n += len(p.Name)*2 + 32 + p.Value.Size()
		}
	}
	return n
}

// AppendEntities appends a query-entities body: {"odata.metadata":…,"value":[…]}.
func AppendEntities(b []byte, c *Context, es []*entity.Entity, sel *Projection) []byte {
	b, _ = AppendEntitiesWithin(b, c, es, sel, math.MaxInt)
	return b
}

// AppendEntitiesWithin is AppendEntities writing at most limit bytes: it
// stops before the entity that would take the body past limit and returns
// how many entities it wrote. The first entity is always written, so a
// body passes limit only when that one entity alone does.
func AppendEntitiesWithin(b []byte, c *Context, es []*entity.Entity, sel *Projection, limit int) ([]byte, int) {
	if c.Style == profile.CosmosBodies {
		return appendCosmosEntities(b, c, es, sel, limit)
	}
	s := sel.prepare()
	nulls := 0 // the most the selected names add to an entity, as nulls
	for _, name := range s.custom {
		nulls += len(name) + 8
	}
	n := 128
	for _, e := range es {
		if n += sizeHint(c, e) + nulls; n >= limit {
			// Room for the last entity written past the limit, which
			// is then taken back, without growing the buffer again.
			n = limit + limit/8
			break
		}
	}
	b = slices.Grow(b, n)
	start := len(b)
	b = append(b, '{')
	if c.Level != NoMetadata && c.Emulator != nil && c.Emulator.QueryElementURL { // F-AZURITE-QUERY-METADATA
		b = appendMetadataURL(b, &Context{Base: c.Base, Table: "Tables"}, "/@Element", nil)
		b = append(b, ',')
	} else if c.Level != NoMetadata {
		b = appendMetadataURL(b, c, "", sel)
		b = append(b, ',')
	}
	b = append(b, `"value":[`...)
	const end = "]}"
	b, wrote := appendObjectsWithin(b, es, start, len(end), limit, func(b []byte, e *entity.Entity) []byte {
		return appendEntityMembers(b, c, e, &s, true)
	})
	return append(b, end...), wrote
}

// appendObjectsWithin writes es as comma-separated JSON objects, their
// members by members, and stops before the entity that would take the
// body (begun at start, tail bytes still to come after the objects) past
// limit (F-PAGE-BYTES); the first is always written. It returns how many
// it wrote.
func appendObjectsWithin(b []byte, es []*entity.Entity, start, tail, limit int, members func([]byte, *entity.Entity) []byte) ([]byte, int) {
	for i, e := range es {
		before := len(b)
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = members(b, e)
		b = append(b, '}')
		if i > 0 && len(b)-start+tail > limit {
			return b[:before], i
		}
	}
	return b, len(es)
}

func appendMetadataURL(b []byte, c *Context, suffix string, sel *Projection) []byte {
	b = append(b, `"odata.metadata":"`...)
	b = edm.AppendJSONStringContent(b, c.Base)
	b = append(b, "/$metadata#"...)
	b = edm.AppendJSONStringContent(b, c.Table)
	b = append(b, suffix...)
	if sel != nil && (c.Emulator == nil || !c.Emulator.PlainSelect) { // F-AZURITE-SELECT
		b = append(b, "&$select="...)
		b = edm.AppendJSONStringContent(b, sel.Text)
	}
	return append(b, '"')
}

// appendEntityMembers writes an entity's members in the live order:
// odata.type, odata.id, odata.etag, odata.editLink (as the level asks), then
// PartitionKey, RowKey, Timestamp and the custom properties, each annotation
// just before its value. e's encoded members are kept for the next reader
// when e was read from the store (a query page, a point read, which a client
// may ask for again and again) and its table's cache has room: a bounded
// budget, so that reading rows at random cannot double their memory.
func appendEntityMembers(b []byte, c *Context, e *entity.Entity, s *selection, first bool) []byte {
	var m *entity.Members
	if c.Level != NoMetadata && s.all && c.Emulator == nil {
		m = members(e)
	}
	return appendMembersWith(b, c, e, s, first, m)
}

// appendMembersWith is appendEntityMembers with e's cached members m (nil
// for none): AppendMembers encodes through it without looking for any, so
// that its stand-in entity stays on the stack.
func appendMembersWith(b []byte, c *Context, e *entity.Entity, s *selection, first bool, m *entity.Members) []byte {
	w := memberWriter{b: b, first: first, emu: c.Emulator}
	if m != nil && c.Level == MinimalMetadata {
		w.next()
		return append(w.b, m.JSON...)
	}
	w.head(c, e, s)
	last := w.emu != nil && w.emu.TimestampLast // F-AZURITE-TIMESTAMP
	if (s.all || s.ts) && !last {
		w.timestamp(c, e.Timestamp)
	}
	if m != nil && c.Level == FullMetadata {
		if props := m.JSON[m.Props:]; len(props) > 0 {
			w.next()
			w.b = append(w.b, props...)
		}
		return w.b
	}
	w.custom(c, e, s)
	if (s.all || s.ts) && last {
		w.timestamp(c, e.Timestamp)
	}
	return w.b
}

// memberWriter writes an entity's members one after another, a comma before
// each but the first; cosmos writes times with seven digits
// (F-COSMOS-BODIES); emu, when set, is an emulator's forms
// (F-AZURITE-TIMESTAMP, F-AZURITE-SELECT, F-AZURITE-DOUBLE).
type memberWriter struct {
	b             []byte
	first, cosmos bool
	emu           *profile.Emulator
}

// sevenDigits says times are written with all seven fractional digits.
func (w *memberWriter) sevenDigits() bool {
	return w.cosmos || w.emu != nil && w.emu.FixedTimestamp
}

func (w *memberWriter) next() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
}

func (w *memberWriter) etag(t edm.Ticks) {
	if w.sevenDigits() {
		w.b = appendCosmosETagJSON(w.b, t)
	} else {
		w.b = appendETagJSON(w.b, t)
	}
}

// head writes the annotations the level asks for (odata.type, odata.id,
// odata.etag, odata.editLink) and the keys s selects.
func (w *memberWriter) head(c *Context, e *entity.Entity, s *selection) {
	if c.Level == FullMetadata {
		w.next()
		w.b = append(w.b, `"odata.type":`...)
		w.b = edm.AppendJSONString(w.b, c.Account+"."+c.Table)
		// Entity paths are percent-encoded, so they need no JSON escaping.
		w.b = append(w.b, `,"odata.id":"`...)
		w.b = edm.AppendJSONStringContent(w.b, c.Base)
		w.b = append(w.b, '/')
		w.b = AppendEntityPath(w.b, c.Table, e.PartitionKey, e.RowKey)
		w.b = append(w.b, `","odata.etag":`...)
		w.etag(e.Timestamp)
		w.b = append(w.b, `,"odata.editLink":"`...)
		w.b = AppendEntityPath(w.b, c.Table, e.PartitionKey, e.RowKey)
		w.b = append(w.b, '"')
	} else if c.Level == MinimalMetadata {
		w.next()
		w.b = append(w.b, `"odata.etag":`...)
		w.etag(e.Timestamp)
	}
	if s.all || s.pk {
		w.next()
		w.b = append(w.b, `"PartitionKey":`...)
		w.b = edm.AppendJSONString(w.b, e.PartitionKey)
	}
	if s.all || s.rk {
		w.next()
		w.b = append(w.b, `"RowKey":`...)
		w.b = edm.AppendJSONString(w.b, e.RowKey)
	}
}

// timestamp writes the Timestamp member.
func (w *memberWriter) timestamp(c *Context, t edm.Ticks) {
	w.next()
	if c.Level == FullMetadata {
		w.b = append(w.b, `"Timestamp@odata.type":"Edm.DateTime",`...)
	}
	w.b = append(w.b, `"Timestamp":"`...)
	if w.sevenDigits() {
		w.b = appendTime7(w.b, t)
	} else {
		w.b = t.AppendText(w.b)
	}
	w.b = append(w.b, '"')
}

// custom writes the custom properties s selects, then null for each
// selected name the entity lacks (F-SELECT-MISSING).
func (w *memberWriter) custom(c *Context, e *entity.Entity, s *selection) {
	clear(s.seen)
	for _, p := range e.Properties {
		if !s.all {
			i := s.find(p.Name)
			if i < 0 {
				continue
			}
			s.seen[i] = true
		}
		w.next()
		switch {
		case w.cosmos:
			w.b = appendCosmosProperty(w.b, c.Level, p.Name, p.Value)
		case w.emu != nil && w.emu.JSNumbers && p.Value.Type() == edm.Double:
			w.b = appendJSNumber(w.b, p.Name, p.Value)
		default:
			w.b = appendProperty(w.b, c.Level, p.Name, p.Value)
		}
	}
	for i, n := range s.custom {
		if !s.seen[i] && (w.emu == nil || !w.emu.PlainSelect) { // F-AZURITE-SELECT
			w.next()
			w.b = edm.AppendJSONString(w.b, n)
			w.b = append(w.b, ":null"...)
		}
	}
}

// members returns e's encoded members when the store keeps e: those
// cached, or encoded now and cached for the next reader. It is nil for an
// entity the store does not keep.
func members(e *entity.Entity) *entity.Members {
	if m := e.CachedMembers(); m != nil {
		return m
	}
	if e.KeptSize == 0 || !e.CanCache() {
		return nil
	}
	json, props := Members(e)
	// Kept at its length: the encoding was given room to spare.
	m := &entity.Members{JSON: bytes.Clone(json), Props: props}
	e.CacheMembers(m)
	return m
}

// Members writes e as the members of a minimal-metadata body and returns
// them with the offset where its custom properties begin (the form
// entity.Members caches). e's Timestamp must be final.
func Members(e *entity.Entity) ([]byte, int) {
	return AppendMembers(make([]byte, 0, MembersHint(e)), e)
}

// MembersHint is a length that Members' output seldom exceeds.
func MembersHint(e *entity.Entity) int { return sizeHint(&Context{}, e) }

// AppendMembers is Members writing after b's bytes: it returns b extended
// and the offset in it where the custom properties begin.
func AppendMembers(b []byte, e *entity.Entity) ([]byte, int) {
	head := entity.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp}
	start := len(b)
	everything := selection{all: true}
	b = appendMembersWith(b, &Context{Level: MinimalMetadata}, &head, &everything, true, nil)
	props := len(b)
	for _, p := range e.Properties {
		b = append(b, ',')
		if props == len(b)-1 {
			props = len(b)
		}
		b = appendProperty(b, MinimalMetadata, p.Name, p.Value)
	}
	return b, props - start
}

// appendETagJSON writes ETag(t) as a JSON string (its two double quotes
// escaped) without building the ETag first.
func appendETagJSON(b []byte, t edm.Ticks) []byte {
	b = append(b, `"W/\"datetime'`...)
	b = appendETagTime(b, t)
	return append(b, `'\""`...)
}

func appendProperty(b []byte, l Level, name string, v edm.Value) []byte {
	if l != NoMetadata && v.NeedsAnnotation() {
		b = append(b, '"')
		b = edm.AppendJSONStringContent(b, name)
		b = append(b, annotationSuffix+`":"`...)
		b = append(b, v.Type().String()...) // "Edm.Int64" and the like need no escaping
		b = append(b, '"', ',')
	}
	b = edm.AppendJSONString(b, name)
	b = append(b, ':')
	return v.AppendJSON(b)
}

// appendJSNumber writes a Double member as Azurite does, through
// JavaScript's number printing (F-AZURITE-DOUBLE): the shortest digits
// that read back, plain from 1e-6 to 1e21 ("3", not "3.0"), otherwise
// with an exponent of no padding ("1.5e+24", "1e-7"). A special value is
// written as the service writes it.
func appendJSNumber(b []byte, name string, v edm.Value) []byte {
	f := v.Float()
	if _, special := edm.DoubleSpecial(f); special {
		return appendProperty(b, MinimalMetadata, name, v)
	}
	b = edm.AppendJSONString(b, name)
	b = append(b, ':')
	if a := math.Abs(f); a == 0 || a >= 1e-6 && a < 1e21 {
		if f == 0 {
			return append(b, '0')
		}
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	if e := bytes.IndexByte(b[start:], 'e'); e >= 0 && b[start+e+2] == '0' { // e+07 → e+7
		i := start + e + 2
		b = append(b[:i], b[i+1:]...)
	}
	return b
}
