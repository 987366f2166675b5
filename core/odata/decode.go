package odata

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

const annotationSuffix = "@odata.type"

// DecodeEntity reads an insert, update or merge body into a typed entity with
// every rule applied, returning the first violation as the service reports it.
// Malformed JSON, a body that is not an object, and objects or arrays as
// values are InvalidInput. The property count is checked before annotations
// are matched and values typed, so an oversized body costs one cheap pass.
func DecodeEntity(body []byte) (*entity.Entity, *tableerr.Error) {
	return DecodeEntityText(body, "")
}

// DecodeEntityText is DecodeEntity for a body its caller also holds as
// text (the same bytes, never written again), or "": the body is then read
// from text instead of from a copy of its own. The entity keeps none of
// text but its property names, until the store replaces them with its
// shared ones (see ownStrings).
func DecodeEntityText(body []byte, text string) (*entity.Entity, *tableerr.Error) {
	var space [maxSimpleMembers]entity.Field // see Decoder.Entity
	d, err := ownedDraft(body, text, space[:0])
	if err != nil {
		return nil, err
	}
	return entity.Build(d)
}

// DecodeUpdate decodes an update or merge body addressed by URL keys: keys
// the body leaves out come from the URL; keys it names must equal the URL's.
func DecodeUpdate(body []byte, pk, rk string) (*entity.Entity, *tableerr.Error) {
	return DecodeUpdateText(body, "", pk, rk)
}

// DecodeUpdateText is DecodeUpdate for a body also held as text, as in
// DecodeEntityText.
func DecodeUpdateText(body []byte, text, pk, rk string) (*entity.Entity, *tableerr.Error) {
	var space [maxSimpleMembers]entity.Field // see Decoder.Entity
	d, err := ownedDraft(body, text, space[:0])
	if err != nil {
		return nil, err
	}
	var havePK, haveRK bool
	for _, f := range d.Fields {
		switch f.Name {
		case entity.PartitionKey:
			havePK = true
			if f.Err == nil && !f.Null && f.Value.Type() == edm.String && f.Value.Str() != pk {
				return nil, tableerr.New(tableerr.InvalidInput)
			}
		case entity.RowKey:
			haveRK = true
			if f.Err == nil && !f.Null && f.Value.Type() == edm.String && f.Value.Str() != rk {
				return nil, tableerr.New(tableerr.InvalidInput)
			}
		}
	}
	if !havePK {
		d.Fields = append(d.Fields, entity.Field{Name: entity.PartitionKey, Value: edm.StringValue(pk)})
	}
	if !haveRK {
		d.Fields = append(d.Fields, entity.Field{Name: entity.RowKey, Value: edm.StringValue(rk)})
	}
	return entity.Build(d)
}

// decodeLimited reads the draft of a write, refusing more properties than
// an entity may have before matching annotations and typing values.
func decodeLimited(body []byte) (entity.Draft, *tableerr.Error) {
	root, err := parseObject(body)
	if err != nil {
		return entity.Draft{}, err
	}
	if len(body) < smallBody {
		// Too short to name more properties than the limit: no count
		// pass, slices sized for a typical entity.
		return readDraft(root, memberCount{props: 16, notes: 8})
	}
	c := countMembers(root)
	if n := c.stored + 3; !c.nested && n > entity.MaxProperties {
		return entity.Draft{}, entity.TooManyProperties(n)
	}
	return readDraft(root, c)
}

// smallBody is a length below which a body cannot hold more members than
// an entity may have: each takes at least 5 bytes ("":0,).
const smallBody = 5 * (entity.MaxProperties - 2)

// DecodeDraft reads an entity body into a draft without applying the entity
// rules (the editor's JSON mode shows all of them via entity.Check). It fails
// where the JSON itself is unusable, and with TooManyProperties, before
// reading further, when the body holds more properties than an entity may.
func DecodeDraft(body []byte) (entity.Draft, *tableerr.Error) {
	return decodeDraft(body, "", nil)
}

// ownedDraft is decodeDraft for an entity being built: the body's UTF-16
// escapes checked too, and the property names its own.
func ownedDraft(body []byte, text string, space []entity.Field) (entity.Draft, *tableerr.Error) {
	d, err := decodeDraft(body, text, space)
	if err == nil {
		err = utf16Text(body)
	}
	if err == nil {
		ownStrings(d.Fields)
	}
	return d, err
}

// decodeDraft is DecodeDraft for a body also held as text, or "", its
// fields read into space when it is not nil (see decodeSimple).
func decodeDraft(body []byte, text string, space []entity.Field) (entity.Draft, *tableerr.Error) {
	if len(text) != len(body) || len(text) > maxSimpleBody {
		text, _ = copyForSimple(body)
	}
	if text != "" {
		if d, ok := decodeSimple(text, space); ok {
			return d, nil
		}
	}
	return decodeLimited(body)
}

// Decoder decodes entity bodies one after another (the parts of a batch),
// the entities, their property slices and their string values taken from
// shared chunks. The zero value is ready; a Decoder is not for concurrent
// use.
type Decoder struct {
	// slab holds the entities built, so that a batch's lie together.
	slab entity.Slab
	// texts holds the copies of the bodies the fields are read from,
	// several to a chunk.
	texts strings.Builder
	// values holds the copies of the entities' string values, many to a
	// chunk.
	values strings.Builder
}

// decoderValues is the size of a chunk of string values: a dozen typical
// entities' worth. A batch's last chunk is left partly unused and lives
// with its entities: 4 KiB chunks cost a stored entity of 50 bytes of
// strings about 30 bytes more than the strings.
const decoderValues = 1 << 10

// decoderTexts is the size of a chunk of body copies (a few dozen typical
// entities); a body over a quarter of it is copied on its own. A chunk
// lives while any string cut from it does: the store's shared names
// replace the entities' names, so a chunk mostly goes with the batch.
const decoderTexts = 16 << 10

// Entity is DecodeEntity.
func (dec *Decoder) Entity(body []byte) (*entity.Entity, *tableerr.Error) {
	return dec.EntityText(body, "")
}

// EntityText is Entity for a body its caller also holds as text (the same
// bytes, never written again; a batch part's body in the envelope's text),
// or "", as DecodeEntityText is DecodeEntity's.
func (dec *Decoder) EntityText(body []byte, text string) (*entity.Entity, *tableerr.Error) {
	if len(body) > maxSimpleBody {
		return DecodeEntityText(body, text)
	}
	if len(text) != len(body) {
		text = dec.text(body)
	}
	// The fields are read into space on the stack: the entity takes their
	// names and values, not the space, and writes there need no write
	// barrier while the collector runs.
	var space [maxSimpleMembers]entity.Field
	d, ok := decodeSimple(text, space[:0])
	if !ok {
		return DecodeEntityText(body, text)
	}
	for i := range d.Fields { // as ownStrings, from a chunk
		if f := &d.Fields[i]; isString(f) {
			f.Value = edm.StringValue(dec.value(f.Value.Str()))
		}
	}
	d.Slab = &dec.slab
	return entity.Build(d)
}

// ownStrings gives the string values of fields their own copy, one block
// for them all. An entity the store keeps would otherwise hold the whole
// text of its body (several hundred bytes, most of them punctuation, names
// and values kept in other forms) for the few dozen bytes of its strings:
// a typical stored entity takes about a third less memory. The names need
// no copy: the store replaces them with the table's shared ones.
func ownStrings(fields []entity.Field) {
	n := 0
	for i := range fields {
		if f := &fields[i]; isString(f) {
			n += len(f.Value.Str())
		}
	}
	if n == 0 {
		return
	}
	var b strings.Builder
	b.Grow(n)
	for i := range fields {
		if f := &fields[i]; isString(f) {
			b.WriteString(f.Value.Str())
		}
	}
	all := b.String()
	for i := range fields {
		if f := &fields[i]; isString(f) {
			k := len(f.Value.Str())
			f.Value, all = edm.StringValue(all[:k]), all[k:]
		}
	}
}

// isString reports whether f holds a non-empty Edm.String.
func isString(f *entity.Field) bool {
	return f.Err == nil && !f.Null && f.Value.Type() == edm.String && f.Value.Str() != ""
}

// value returns a copy of s from the current chunk of values when it
// fits, as text does for bodies.
func (dec *Decoder) value(s string) string {
	if len(s) > decoderValues/4 {
		return strings.Clone(s)
	}
	if dec.values.Cap()-dec.values.Len() < len(s) {
		dec.values = strings.Builder{}
		dec.values.Grow(decoderValues)
	}
	start := dec.values.Len()
	dec.values.WriteString(s)
	return dec.values.String()[start:]
}

// text returns a copy of body, from the current chunk when it fits. The
// builder's bytes are never changed once written (a full chunk is left to
// the entities holding its strings and a new one begun), so the strings
// cut from it stay as they are.
func (dec *Decoder) text(body []byte) string {
	if len(body) > decoderTexts/4 {
		return string(body)
	}
	if dec.texts.Cap()-dec.texts.Len() < len(body) {
		dec.texts = strings.Builder{}
		dec.texts.Grow(decoderTexts)
	}
	start := dec.texts.Len()
	dec.texts.Write(body)
	return dec.texts.String()[start:]
}

// parseObject parses a body that must be one JSON object, its nesting
// bounded before gjson's recursive validator sees it.
func parseObject(body []byte) (gjson.Result, *tableerr.Error) {
	if !WithinDepth(body, MaxDepth) {
		return gjson.Result{}, invalidJSON("the body nests objects or arrays too deeply")
	}
	if !gjson.ValidBytes(body) {
		return gjson.Result{}, invalidJSON("the body is not valid JSON")
	}
	root := gjson.ParseBytes(body)
	if !root.IsObject() {
		return gjson.Result{}, invalidJSON("the body is not a JSON object")
	}
	return root, nil
}

// memberCount is a first, allocation-free pass over an entity body: how
// many properties and type annotations it has, and how many property
// members count against the limit (all but the keys and Timestamp, nulls
// included, so that a body of 100,000 nulls is refused in this pass).
// nested is set when a value is an object or an array (refused for that).
type memberCount struct {
	props, notes, stored int
	nested               bool
}

// memberName classifies a member's name: an @odata.type annotation (with
// the property it types), another annotation or metadata (skip), or a
// property.
func memberName(raw string) (name string, note, skip bool) {
	name = validUTF8(raw)
	if at := strings.IndexByte(name, '@'); at >= 0 && strings.HasPrefix(name[at+1:], "odata.") {
		if name[at:] == annotationSuffix {
			return name[:at], true, false
		}
		return name, false, true // other instance annotations carry nothing we store
	}
	return name, false, strings.HasPrefix(name, "odata.") // odata.etag, odata.metadata, …: ignored in requests
}

func countMembers(root gjson.Result) memberCount {
	var c memberCount
	root.ForEach(func(k, v gjson.Result) bool {
		name, note, skip := memberName(k.Str)
		switch {
		case skip:
		case note:
			c.notes++
		default:
			c.props++
			switch {
			case v.IsObject() || v.IsArray():
				c.nested = true
			case name == entity.PartitionKey, name == entity.RowKey, name == entity.Timestamp:
			default:
				c.stored++ // a null counts: the limit is on the members a body may name
			}
		}
		return true
	})
	return c
}

// readDraft reads the members (slices sized by the first pass), then
// matches annotations to properties through a map, linear in the body.
func readDraft(root gjson.Result, c memberCount) (entity.Draft, *tableerr.Error) {
	props := make([]member, 0, c.props)
	notes := make([]member, 0, c.notes)
	var bad *tableerr.Error
	root.ForEach(func(k, v gjson.Result) bool {
		name, note, skip := memberName(k.Str)
		switch {
		case skip:
			return true
		case note:
			if v.Type != gjson.String {
				bad = invalidJSON("the annotation " + name + annotationSuffix + " is not a string")
				return false
			}
			notes = append(notes, member{name: name, text: v.Str})
			return true
		}
		p := member{name: name}
		switch v.Type {
		case gjson.Null:
			p.null = true
		case gjson.String:
			p.kind, p.text = edm.JSONString, validUTF8(v.Str)
		case gjson.Number:
			p.kind, p.text = edm.JSONNumber, v.Raw
		case gjson.True, gjson.False:
			p.kind, p.text = edm.JSONBool, v.Raw
		default:
			bad = invalidJSON("the value of " + name + " is an object or an array")
			return false
		}
		props = append(props, p)
		return true
	})
	if bad != nil {
		return entity.Draft{}, bad
	}
	// A property's type is kept on its last member, found through a map
	// (linear in the body) unless the body is small enough to search.
	var index map[string]int
	last := func(name string) (int, bool) {
		if index != nil {
			i, ok := index[name]
			return i, ok
		}
		for i := len(props) - 1; i >= 0; i-- {
			if props[i].name == name {
				return i, true
			}
		}
		return 0, false
	}
	if len(notes) > 0 {
		if len(notes)*len(props) > 512 {
			index = make(map[string]int, len(props))
			for i, p := range props {
				index[p.name] = i
			}
		}
		for _, n := range notes {
			i, ok := last(n.name)
			if !ok {
				return entity.Draft{}, invalidJSON("the annotation " + n.name + annotationSuffix + " has no property")
			}
			if props[i].typed {
				return entity.Draft{}, tableerr.New(tableerr.DuplicatePropertiesSpecified)
			}
			props[i].typed, props[i].typeName = true, n.text
		}
	}
	d := entity.Draft{Fields: make([]entity.Field, len(props))}
	for i, p := range props {
		typeName := ""
		if len(notes) > 0 && !p.null {
			j, _ := last(p.name)
			typeName = props[j].typeName
		}
		d.Fields[i] = p.field(typeName)
	}
	return d, nil
}

// field is the entity field a member gives, its value read as typeName
// (the member's annotation, or "") says.
func (p member) field(typeName string) entity.Field {
	if p.null {
		return entity.Field{Name: p.name, Null: true}
	}
	v, err := fromJSON(p.kind, p.text, typeName)
	return entity.Field{Name: p.name, Value: v, Err: err}
}

// member is one top-level JSON member of an entity body.
type member struct {
	name, text string
	kind       edm.JSONKind
	null       bool
	// typed is set on a property's last member once an annotation gave
	// its type (a second annotation is a duplicate).
	typed    bool
	typeName string
}

// fromJSON wraps edm.FromJSON so that a nil *ParseError stays a nil error.
func fromJSON(kind edm.JSONKind, text, typeName string) (edm.Value, error) {
	v, err := edm.FromJSON(kind, text, typeName)
	if err != nil {
		return edm.Value{}, err
	}
	return v, nil
}

// DecodeTableName reads a create-table body, {"TableName":"name"}, and applies
// the table-name rule of the profile (F-COSMOS-TABLE-NAMES).
func DecodeTableName(body []byte, rule profile.TableNameRule) (string, *tableerr.Error) {
	root, err := parseObject(body)
	if err == nil {
		err = utf16Text(body)
	}
	if err != nil {
		return "", err
	}
	name := root.Get("TableName")
	if name.Type != gjson.String {
		return "", tableerr.New(tableerr.PropertiesNeedValue)
	}
	if err := entity.CheckTableNameBy(rule, name.Str); err != nil {
		return "", err
	}
	return name.Str, nil
}

func invalidJSON(detail string) *tableerr.Error {
	return tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
		ID: "json-invalid", Detail: detail,
		Statement: "An entity body is one JSON object whose values are strings, numbers, booleans or null.",
		Section:   "Payload format for Table service operations",
		DocURL:    "https://learn.microsoft.com/en-us/rest/api/storageservices/payload-format-for-table-service-operations",
	})
}

// validUTF8 replaces invalid UTF-8 (possible in raw JSON bytes) with U+FFFD,
// as the service's UTF-16 strings would hold it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
