package odata

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

const annotationSuffix = "@odata.type"

// DecodeEntity reads an insert, update or merge body into a typed entity with
// every rule applied, returning the first violation as the service reports it.
// Malformed JSON, a body that is not an object, and objects or arrays as
// values are InvalidInput.
func DecodeEntity(body []byte) (*entity.Entity, *tableerr.Error) {
	d, err := DecodeDraft(body)
	if err != nil {
		return nil, err
	}
	return entity.Build(d)
}

// DecodeDraft reads an entity body into a draft without applying the entity
// rules (the editor's JSON mode shows all of them via entity.Check). It fails
// only where the JSON itself is unusable.
func DecodeDraft(body []byte) (entity.Draft, *tableerr.Error) {
	if !gjson.ValidBytes(body) {
		return entity.Draft{}, invalidJSON("the body is not valid JSON")
	}
	root := gjson.ParseBytes(body)
	if !root.IsObject() {
		return entity.Draft{}, invalidJSON("the body is not a JSON object")
	}
	// Members are collected first because an annotation may follow its
	// property. A small stack buffer covers typical entities.
	var buf [32]member
	props := buf[:0]
	var notes []member // name@odata.type annotations
	var bad *tableerr.Error
	root.ForEach(func(k, v gjson.Result) bool {
		name := validUTF8(k.String())
		if at := strings.IndexByte(name, '@'); at >= 0 && strings.HasPrefix(name[at+1:], "odata.") {
			if name[at:] == annotationSuffix {
				if v.Type != gjson.String {
					bad = invalidJSON("the annotation " + name + " is not a string")
					return false
				}
				notes = append(notes, member{name: name[:at], text: v.Str})
			}
			return true // other instance annotations carry nothing we store
		}
		if strings.HasPrefix(name, "odata.") {
			return true // odata.etag, odata.metadata, …: ignored in requests
		}
		m := member{name: name}
		switch v.Type {
		case gjson.Null:
			m.null = true
		case gjson.String:
			m.kind, m.text = edm.JSONString, validUTF8(v.Str)
		case gjson.Number:
			m.kind, m.text = edm.JSONNumber, v.Raw
		case gjson.True, gjson.False:
			m.kind, m.text = edm.JSONBool, v.Raw
		default:
			bad = invalidJSON("the value of " + name + " is an object or an array")
			return false
		}
		props = append(props, m)
		return true
	})
	if bad != nil {
		return entity.Draft{}, bad
	}
	for i, n := range notes {
		for _, m := range notes[:i] {
			if m.name == n.name {
				return entity.Draft{}, tableerr.New(tableerr.DuplicatePropertiesSpecified)
			}
		}
		found := false
		for _, p := range props {
			if p.name == n.name {
				found = true
				break
			}
		}
		if !found {
			return entity.Draft{}, invalidJSON("the annotation " + n.name + annotationSuffix + " has no property")
		}
	}
	d := entity.Draft{Fields: make([]entity.Field, len(props))}
	for i, p := range props {
		f := &d.Fields[i]
		f.Name = p.name
		if p.null {
			f.Null = true
			continue
		}
		typeName := ""
		for _, n := range notes {
			if n.name == p.name {
				typeName = n.text
				break
			}
		}
		f.Value, f.Err = fromJSON(p.kind, p.text, typeName)
	}
	return d, nil
}

// member is one top-level JSON member of an entity body.
type member struct {
	name string
	kind edm.JSONKind
	text string
	null bool
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
// the table-name rules.
func DecodeTableName(body []byte) (string, *tableerr.Error) {
	if !gjson.ValidBytes(body) {
		return "", invalidJSON("the body is not valid JSON")
	}
	root := gjson.ParseBytes(body)
	if !root.IsObject() {
		return "", invalidJSON("the body is not a JSON object")
	}
	name := root.Get("TableName")
	if name.Type != gjson.String {
		return "", tableerr.New(tableerr.PropertiesNeedValue)
	}
	if err := entity.CheckTableName(name.Str); err != nil {
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
