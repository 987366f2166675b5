package entity

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Field is one name/value pair as a client wrote it: from a JSON body (odata)
// or from the playground's editor. Exactly one of Value, Null and Err holds.
type Field struct {
	// Name is the property name exactly as written, system names included.
	Name string
	// Value is the parsed value, when the field is neither null nor in error.
	Value edm.Value
	Null  bool  // the client sent null: never stored
	Err   error // the value did not parse (usually *edm.ParseError)
}

// Draft is an entity as a client wrote it, fields in their order.
type Draft struct {
	// Fields are the name/value pairs, duplicates and system properties kept
	// so that Check can report them.
	Fields []Field
	// Slab, when not nil, is where Check takes the entity and its property
	// slice from (a decoder of many bodies shares one); nil allocates them.
	Slab *Slab
}

// Report is the outcome of checking a draft: the entity it describes (as far
// as it could be built), every violation in the order the service would
// report them, and the entity's size and property count.
type Report struct {
	// Entity is the entity built from the draft, built even when there are
	// violations; nil when a key is missing or bad.
	Entity *Entity
	// Violations are every broken rule, the one the service would answer first
	// at index 0; empty when the draft can be stored.
	Violations []*tableerr.Error
	// Size is the entity's size in bytes by the service's formula, measured
	// even while a key is missing so that the editor's gauge keeps moving.
	Size int
	// Count is the number of properties counted against the limit: the custom
	// ones plus PartitionKey, RowKey and Timestamp.
	Count int
}

// The stages, in the order the service reports violations: the whole
// entity's limits come before a single value's size (F-SIZE-ORDER).
const (
	stageJSON = iota
	stageKeys
	stageNames
	stageTypes
	stageCount
	stageEntitySize
	stageSizes
)

type violation struct {
	stage int
	err   *tableerr.Error
}

// Build turns a draft into an entity, or returns the first violation in the
// service's order: JSON (duplicates) → keys → names → types → property count
// → entity size → value sizes.
func Build(d Draft) (*Entity, *tableerr.Error) {
	r := Check(d)
	if len(r.Violations) > 0 {
		return nil, r.Violations[0]
	}
	return r.Entity, nil
}

// Check returns every violation of the draft, for the editor.
func Check(d Draft) Report {
	var vs []violation
	add := func(stage int, e *tableerr.Error) { vs = append(vs, violation{stage, e}) }
	e := d.Slab.entity(len(d.Fields))
	size := 4 // the formula's constant; keys and properties are added below
	var pk, rk *Field
	// A draft whose names are, position by position, those of the draft
	// the slab checked before, which had no repeated name, has none either.
	known := d.Slab.distinctNames(d.Fields)
	seen := nameSet{}
	if !known {
		seen = newNameSet(len(d.Fields))
	}
	repeated := false
	for i := range d.Fields {
		f := &d.Fields[i]
		if !known && !seen.add(f.Name) {
			repeated = true
			add(stageJSON, tableerr.Broke(tableerr.DuplicatePropertiesSpecified, tableerr.Rule{
				ID: "property-duplicate", Property: f.Name,
				Statement: "Each property appears once in an entity.",
				Section:   secProperties, DocURL: dataModelURL + "#properties",
			}))
			continue
		}
		switch {
		case f.Name == PartitionKey:
			pk = f
			continue
		case f.Name == RowKey:
			rk = f
			continue
		case f.Name == Timestamp || strings.HasPrefix(f.Name, "odata."):
			continue // set by the server / metadata, never stored from the client
		}
		nameLen, ok := d.Slab.checked(i, f.Name)
		if !ok {
			nameLen = edm.UTF16Len(f.Name)
			if v := nameViolation(f.Name, nameLen); v != nil {
				add(stageNames, v)
				continue
			}
			d.Slab.noteChecked(i, f.Name, nameLen)
		}
		if f.Null {
			continue
		}
		if f.Err != nil {
			add(stageTypes, valueError(f.Name, f.Err))
			continue
		}
		valueSize, v := sizeViolation(f.Name, f.Value)
		if v != nil {
			add(stageSizes, v)
		}
		size += 8 + 2*nameLen + valueSize
		e.Properties = appendProperty(e.Properties, f.Name, f.Value)
	}
	d.Slab.trim(e)
	if !known && !repeated {
		d.Slab.noteDistinct(d.Fields)
	}
	props := e.Properties
	var ok bool
	if e.PartitionKey, ok = checkKey(PartitionKey, pk, add); !ok {
		e = nil
	} else if e.RowKey, ok = checkKey(RowKey, rk, add); !ok {
		e = nil
	}
	if e != nil {
		size += 2 * (edm.UTF16Len(e.PartitionKey) + edm.UTF16Len(e.RowKey))
		for _, v := range limitViolations(e.PropertyCount(), size) {
			add(v.stage, v.err)
		}
	} else {
		// A missing or bad key stops the entity, but the meters keep
		// measuring what is there: an editor's gauges should not fall to 0
		// while a key is being typed.
		size += 2 * (keyLen(pk) + keyLen(rk))
	}
	count := len(props) + 3 // PartitionKey, RowKey and Timestamp count too
	if len(vs) == 0 {
		return Report{Entity: e, Size: size, Count: count}
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].stage < vs[j].stage })
	out := make([]*tableerr.Error, len(vs))
	for i, v := range vs {
		out[i] = v.err
	}
	return Report{Entity: e, Violations: out, Size: size, Count: count}
}

// keyLen is the length in UTF-16 units of a key that has a string value (0
// for one missing or of another type).
func keyLen(f *Field) int {
	if f == nil || f.Null || f.Err != nil || f.Value.Type() != edm.String {
		return 0
	}
	return edm.UTF16Len(f.Value.Str())
}

// CheckLimits returns the first of the whole-entity rules (property count,
// entity size) that e breaks, or nil; the store applies it to merge results.
func CheckLimits(e *Entity) *tableerr.Error { return CheckCountAndSize(e.PropertyCount(), e.Size()) }

// CheckCountAndSize is CheckLimits for an entity of count properties
// (PropertyCount) and size bytes by the formula (Size), known without
// building it.
func CheckCountAndSize(count, size int) *tableerr.Error {
	if vs := limitViolations(count, size); len(vs) > 0 {
		return vs[0].err
	}
	return nil
}

func limitViolations(count, size int) []violation {
	var out []violation
	if n := count; n > MaxProperties {
		out = append(out, violation{stageCount, TooManyProperties(n)})
	}
	if n := size; n > MaxEntitySize {
		out = append(out, violation{stageEntitySize, tableerr.Broke(tableerr.EntityTooLarge, tableerr.Rule{
			ID:        "entity-too-large",
			Measure:   &tableerr.Measure{Value: int64(n), Limit: MaxEntitySize, Unit: "bytes"},
			Statement: "An entity is at most 1 MiB by the published size formula: 4 + 2×(key lengths) + Σ(8 + 2×name length + value size).",
			Section:   secEntitySize, DocURL: sizeBlogURL,
			Disputed: true, Dispute: "The docs give 1 MiB without a formula; Azurite measures the UTF-8 request body instead, and only on update and merge. tableplay uses Microsoft's published formula on every write (F-ENTITY-SIZE).",
		})})
	}
	return out
}

// TooManyProperties is the violation of an entity with count properties
// (the three system properties included), more than MaxProperties.
func TooManyProperties(count int) *tableerr.Error {
	return tableerr.Broke(tableerr.TooManyProperties, tableerr.Rule{
		ID:        "too-many-properties",
		Measure:   &tableerr.Measure{Value: int64(count), Limit: MaxProperties, Unit: "properties"},
		Statement: "An entity has at most 255 properties, counting PartitionKey, RowKey and Timestamp: 252 of your own.",
		Section:   secProperties, DocURL: dataModelURL + "#properties",
	})
}

// checkKey applies the key rules (F-KEY-UTF8, F-KEY-SIZE,
// F-KEY-CHARACTERS) to PartitionKey or RowKey and returns its text.
func checkKey(name string, f *Field, add func(int, *tableerr.Error)) (string, bool) {
	section, url := secKeys, dataModelURL+"#partitionkey-property"
	if name == RowKey {
		url = dataModelURL + "#rowkey-property"
	}
	if f == nil || f.Null {
		add(stageKeys, tableerr.Broke(tableerr.PropertiesNeedValue, tableerr.Rule{
			ID: "key-missing", Property: name,
			Statement: "Every entity has a PartitionKey and a RowKey, both strings (empty is allowed).",
			Section:   section, DocURL: url,
		}))
		return "", false
	}
	if f.Err != nil || f.Value.Type() != edm.String {
		add(stageKeys, tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: "key-not-string", Property: name, Detail: describeBadKey(f), DetailID: badKeyDetailID(f), DetailArgs: badKeyDetailArgs(f),
			Statement: "PartitionKey and RowKey are strings.",
			Section:   section, DocURL: url,
		}))
		return "", false
	}
	key := f.Value.Str()
	if !utf8.ValidString(key) {
		// Only a URL's percent-encoding can bring such bytes (a JSON body's
		// are read as U+FFFD); F-KEY-UTF8.
		add(stageKeys, tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: "key-not-utf8", Property: name, Detail: "its bytes are not UTF-8", DetailID: "not-utf8",
			Statement: "A key is text: percent-encoded in a URL, it must decode to UTF-8.",
			Section:   section, DocURL: url,
		}))
		return "", false
	}
	ok := true
	if i, r, bad := forbiddenKeyChar(key); bad {
		e := tableerr.Broke(tableerr.OutOfRangeInput, tableerr.Rule{
			ID: "key-characters", Property: name, Detail: quoteRune(r) + " at character " + itoa(i+1) + " (counting from 1)",
			DetailID: "at-character", DetailArgs: []any{"char", quoteRune(r), "n", i + 1},
			Statement: "A key may not contain / \\ # ? or control characters (U+0000–U+001F, U+007F–U+009F).",
			Section:   secKeyChars, DocURL: dataModelURL + "#characters-disallowed-in-key-fields",
			Disputed: true, Dispute: "The service answers OutOfRangeInput on writes; Azurite answers InvalidInput. tableplay follows the service (F-KEY-CHARACTERS).",
		})
		e.Message = "The '" + name + "' parameter of value '" + key + "' is out of range."
		add(stageKeys, e)
		ok = false
	}
	if n := edm.UTF16Len(key); n > MaxKeyLength {
		add(stageKeys, tableerr.Broke(tableerr.PropertyValueTooLarge, tableerr.Rule{
			ID: "key-too-long", Property: name,
			Measure:   &tableerr.Measure{Value: int64(n), Limit: MaxKeyLength, Unit: "UTF-16 code units"},
			Statement: "A key is at most 1 KiB: 512 UTF-16 code units.",
			Section:   secKeys, DocURL: url,
			Disputed: true, Dispute: "The docs say 1 KiB, an old page 64 KB and the service's own message 2 KB; the live service rejected a long key with PropertyValueTooLarge. tableplay uses 512 units and that code (F-KEY-SIZE).",
		}))
		ok = false
	}
	return key, ok
}

// badKeyDetailID and badKeyDetailArgs say describeBadKey's text as a
// catalogue detail: a parser's error by its reason's id (ParseDetail), a
// value of another type as value-of-type.
func badKeyDetailID(f *Field) string {
	if f.Err != nil {
		id, _ := ParseDetail(f.Err)
		return id
	}
	return "value-of-type"
}

func badKeyDetailArgs(f *Field) []any {
	if f.Err != nil {
		_, args := ParseDetail(f.Err)
		return args
	}
	return []any{"type", f.Value.Type().String()}
}

// DetailPrefix begins the DetailID of a parser's error: edm.<reason id>.
const DetailPrefix = "edm."

// ParseDetail is err's text (err.Error()) as a catalogue detail: its id,
// edm.<reason id>, and its placeholders type (the Edm type's name, for a
// typed reason) and text (the value as Error quotes it). It is "" for an
// error edm did not write or whose type the reason does not expect; the
// detail then stays English.
func ParseDetail(err error) (string, []any) {
	var pe *edm.ParseError
	if !errors.As(err, &pe) || pe.ID == "" || pe.Error() != err.Error() {
		return "", nil
	}
	name := pe.Type.String()
	for _, r := range edm.Reasons() {
		if r.ID != pe.ID {
			continue
		}
		if r.Untyped {
			if name != "" {
				return "", nil
			}
			return DetailPrefix + r.ID, []any{"text", pe.Quoted()}
		}
		if name == "" {
			return "", nil
		}
		return DetailPrefix + r.ID, []any{"type", name, "text", pe.Quoted()}
	}
	return "", nil
}

func describeBadKey(f *Field) string {
	if f.Err != nil {
		return f.Err.Error()
	}
	return "a value of type " + f.Value.Type().String()
}

// forbiddenKeyChar finds the first character a key may not hold and its
// position in characters.
func forbiddenKeyChar(key string) (int, rune, bool) {
	pos := 0
	for _, r := range key {
		if r == '/' || r == '\\' || r == '#' || r == '?' || r <= 0x1F || r >= 0x7F && r <= 0x9F {
			return pos, r, true
		}
		pos++
	}
	return 0, 0, false
}

// valueError maps a value that did not parse to the service's error (F-ANNOTATED-VALUES).
func valueError(name string, err error) *tableerr.Error {
	rule := tableerr.Rule{
		ID: "value-invalid", Property: name, Detail: err.Error(),
		Statement: "A value must parse as its declared Edm type; Int64, DateTime, Guid and Binary travel as annotated strings.",
		Section:   secPayload, DocURL: payloadURL + "#property-types-in-a-json-feed",
	}
	rule.DetailID, rule.DetailArgs = ParseDetail(err)
	var pe *edm.ParseError
	if errors.As(err, &pe) {
		switch pe.Problem {
		case edm.OutOfRange:
			rule.ID = "datetime-out-of-range"
			rule.Statement = "A DateTime is between 1601-01-01T00:00:00Z and 9999-12-31T23:59:59.9999999Z (UTC)."
			rule.Section, rule.DocURL = secPropTypes, dataModelURL+"#property-types"
			return tableerr.Broke(tableerr.OutOfRangeInput, rule)
		case edm.Overflow:
			e := tableerr.Broke(tableerr.InvalidInput, rule)
			e.Message = "An error occurred while processing this request." // the live text for an Int64 overflow
			return e
		case edm.WrongJSONKind:
			if pe.Type == edm.Int64 {
				rule.ID = "int64-unquoted"
				rule.Statement = "An Edm.Int64 value travels as a JSON string (\"255\"); a bare JSON number annotated Edm.Int64 is refused."
				rule.Disputed = true
				rule.Dispute = "Azurite (and tableplay before) accept a bare number; the OData v3 JSON reader the service runs wants Int64, like Decimal, quoted so that no digit is lost to a double. tableplay refuses it (F-INT64-QUOTED)."
			}
		case edm.UnknownType:
			rule.ID = "type-unknown"
			rule.Statement = "@odata.type names one of the eight Edm types: Binary, Boolean, DateTime, Double, Guid, Int32, Int64, String."
		}
	}
	return tableerr.Broke(tableerr.InvalidInput, rule)
}

// sizeViolation applies the per-value size rules (F-STRING-SIZE) and returns the
// value's size by the formula (edm.Value.Size, without measuring twice).
func sizeViolation(name string, v edm.Value) (int, *tableerr.Error) {
	switch v.Type() {
	case edm.String:
		n := edm.UTF16Len(v.Str())
		if n > MaxStringLength {
			return 2*n + 4, tableerr.Broke(tableerr.PropertyValueTooLarge, tableerr.Rule{
				ID: "string-too-long", Property: name,
				Measure:   &tableerr.Measure{Value: int64(n), Limit: MaxStringLength, Unit: "UTF-16 code units"},
				Statement: "A string value is under 64 KiB as UTF-16: at most 32,767 code units.",
				Section:   secPropTypes, DocURL: dataModelURL + "#property-types",
				Disputed: true, Dispute: "The docs and the service's message say 64 KiB (32K characters), but the live service rejects exactly 32,768 units; Azurite accepts them. tableplay follows the service (F-STRING-SIZE).",
			})
		}
		return 2*n + 4, nil
	case edm.Binary:
		if n := len(v.Str()); n > MaxBinaryLength {
			return v.Size(), tableerr.Broke(tableerr.PropertyValueTooLarge, tableerr.Rule{
				ID: "binary-too-large", Property: name,
				Measure:   &tableerr.Measure{Value: int64(n), Limit: MaxBinaryLength, Unit: "bytes"},
				Statement: "A binary value is at most 64 KiB (65,536 bytes).",
				Section:   secPropTypes, DocURL: dataModelURL + "#property-types",
			})
		}
	}
	return v.Size(), nil
}

func quoteRune(r rune) string { return strconv.QuoteRune(r) }

func itoa(i int) string { return strconv.Itoa(i) }

// nameSet finds repeated names: a linear scan of an array held in the set
// itself for the usual handful of properties (a common entity allocates
// nothing here), a map beyond that.
type nameSet struct {
	small [smallNameSet]string
	n     int
	m     map[string]struct{}
}

// smallNameSet is the most names a nameSet scans linearly.
const smallNameSet = 24

func newNameSet(n int) nameSet {
	if n > smallNameSet {
		return nameSet{m: make(map[string]struct{}, n)}
	}
	return nameSet{}
}

// add records name and reports whether it was new.
func (s *nameSet) add(name string) bool {
	if s.m != nil {
		if _, dup := s.m[name]; dup {
			return false
		}
		s.m[name] = struct{}{}
		return true
	}
	for _, n := range s.small[:s.n] {
		if n == name {
			return false
		}
	}
	s.small[s.n] = name
	s.n++
	return true
}

// appendProperty appends name and v to ps, writing the two into place
// rather than copying a Property built beside it (a copy of a struct this
// size is a bulk move with a write barrier per pointer while the collector
// runs).
func appendProperty(ps []Property, name string, v edm.Value) []Property {
	n := len(ps)
	if n == cap(ps) {
		return append(ps, Property{Name: name, Value: v})
	}
	ps = ps[:n+1]
	p := &ps[n]
	p.Name, p.Value = name, v
	return ps
}
