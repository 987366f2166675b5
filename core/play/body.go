package play

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/odata"
)

// BodyReport is ParseBody's answer: the editor's JSON mode checks a raw OData
// body exactly as an insert would, and converts it to rows for the form mode.
type BodyReport struct {
	EntityReport
	// Draft is the body as editor rows; nil when the JSON is not usable.
	Draft *Draft `json:"draft,omitempty"`
	// Notes point out what the service will store differently from what
	// the body seems to say, e.g. a date without its annotation.
	Notes []Note `json:"notes,omitempty"`
}

// Note is a remark about one property of a body.
type Note struct {
	// Property names the property remarked on.
	Property string `json:"property"`
	// Says is the remark, a full sentence for the reader.
	Says string `json:"says"`
}

// ParseBody reads a raw entity body as the service does and reports every
// violation; when the JSON itself is usable it also returns the draft, so
// switching from JSON to the form keeps the data.
func (a *API) ParseBody(body string) []byte {
	d, err := odata.DecodeDraft([]byte(body))
	if err != nil {
		return mustJSON(BodyReport{EntityReport: EntityReport{Violations: []Card{cardOf(a.Locale, err)}, SizeLimit: entity.MaxEntitySize, CountLimit: entity.MaxProperties}})
	}
	r := entity.Check(d)
	out := BodyReport{EntityReport: EntityReport{Valid: len(r.Violations) == 0, Violations: cards(a.Locale, r.Violations), Size: r.Size,
		SizeLimit: entity.MaxEntitySize, Count: r.Count, CountLimit: entity.MaxProperties}}
	out.Draft = draftOf(d, body)
	out.Notes = append(unannotatedNotes(a.Locale, d, body), bigNumberNotes(a.Locale, d, body)...)
	return mustJSON(out)
}

// unannotatedNotes finds strings that read as a DateTime or a Guid but
// carry no @odata.type: the service stores them as Edm.String, so they
// compare and sort as text.
func unannotatedNotes(loc *locale.Locale, d entity.Draft, body string) []Note {
	var out []Note
	for _, f := range d.Fields {
		if f.Err != nil || f.Null || f.Value.Type() != edm.String || f.Name == entity.PartitionKey || f.Name == entity.RowKey {
			continue
		}
		if gjson.Get(body, gjson.Escape(f.Name+"@odata.type")).Exists() {
			continue
		}
		text := f.Value.Str()
		looks := ""
		if _, err := edm.ParseString(edm.DateTime, text); err == nil {
			looks = "Edm.DateTime"
		} else if _, err := edm.ParseString(edm.Guid, text); err == nil && len(text) == 36 {
			looks = "Edm.Guid"
		}
		if looks == "" {
			continue
		}
		out = append(out, Note{Property: f.Name, Says: loc.T(msgNoteUnannotated, "property", f.Name, "type", looks, "kind", looks[4:], "literal", strings.ToLower(looks[4:]))})
	}
	return out
}

// bigNumberNotes finds whole JSON numbers without an annotation that the
// service reads as an Edm.Double because they do not fit an Int32: the
// type changes, and past 2^53 the digits do too (9007199254740993 is stored
// as 9007199254740992).
func bigNumberNotes(loc *locale.Locale, d entity.Draft, body string) []Note {
	var out []Note
	for _, f := range d.Fields {
		if f.Err != nil || f.Null || f.Value.Type() != edm.Double || gjson.Get(body, gjson.Escape(f.Name+"@odata.type")).Exists() {
			continue
		}
		raw := gjson.Get(body, gjson.Escape(f.Name)).Raw
		if strings.Trim(strings.TrimPrefix(raw, "-"), "0123456789") != "" || raw == "" || raw == "-" {
			continue // not a whole number as written: a Double on purpose
		}
		held := strconv.FormatFloat(f.Value.Float(), 'f', -1, 64)
		if held != raw {
			out = append(out, Note{Property: f.Name, Says: loc.T(msgNoteDoubleInexact, "property", f.Name, "raw", raw, "held", held)})
			continue
		}
		out = append(out, Note{Property: f.Name, Says: loc.T(msgNoteDouble, "property", f.Name, "raw", raw)})
	}
	return out
}

// draftOf turns decoded fields back into editor rows: values that parsed
// show as their text with their type; values that did not keep the text
// the client wrote, and their declared type name from the body.
func draftOf(d entity.Draft, body string) *Draft {
	out := &Draft{Properties: []Row{}}
	for _, f := range d.Fields {
		switch {
		case f.Name == entity.PartitionKey || f.Name == entity.RowKey:
			if f.Err == nil && !f.Null {
				v := f.Value.Text()
				if f.Name == entity.PartitionKey {
					out.PartitionKey = &v
				} else {
					out.RowKey = &v
				}
			}
		case f.Null, f.Name == entity.Timestamp: // never stored from a client
		case f.Err != nil:
			// Keep the row so the editor shows it: the declared type and the
			// text that failed to parse as it.
			t, text := failed(f.Err)
			if raw := gjson.Get(body, gjson.Escape(f.Name)); raw.Exists() {
				text = raw.String()
			}
			if ann := gjson.Get(body, gjson.Escape(f.Name+"@odata.type")); ann.Exists() {
				t = ann.String()
			}
			out.Properties = append(out.Properties, Row{Name: f.Name, Type: t, Text: text})
		default:
			out.Properties = append(out.Properties, Row{Name: f.Name, Type: f.Value.Type().String(), Text: f.Value.Text()})
		}
	}
	return out
}

// failed returns the declared type and the text of a value that did not parse.
func failed(err error) (string, string) {
	var pe *edm.ParseError
	if errors.As(err, &pe) && pe.Type != edm.Invalid {
		return pe.Type.String(), pe.Text
	}
	if pe != nil {
		return "Edm.String", pe.Text
	}
	return "Edm.String", ""
}

// Listed is one entity of a response body, typed as the engine types it.
type Listed struct {
	// ETag is the entity's odata.etag; empty when the body has none
	// (nometadata).
	ETag string `json:"etag,omitempty"`
	// Timestamp is the Timestamp as the body wrote it.
	Timestamp string `json:"timestamp,omitempty"`
	// Draft is the entity in the editor's form: its keys and typed rows.
	Draft *Draft `json:"draft"`
}

// ReadEntities reads a response body — one entity or a query's "value"
// array — into typed rows, so the page can show each value with its Edm type
// without knowing the JSON typing rules. Bodies without annotations
// (nometadata) type Int64, Guid, DateTime and Binary values as strings, as a
// client would.
func (a *API) ReadEntities(body string) []byte {
	if !odata.WithinDepth([]byte(body), odata.MaxDepth) || !gjson.Valid(body) {
		return errorJSON("not JSON")
	}
	root := gjson.Parse(body)
	var objs []gjson.Result
	if v := root.Get("value"); v.IsArray() {
		objs = v.Array()
	} else if root.IsObject() {
		objs = []gjson.Result{root}
	}
	// Written by hand: a query page of 1,000 rows through encoding/json's
	// reflection was a fifth of this call natively, more in the browser.
	b := make([]byte, 0, len(body)+len(body)/2)
	b = append(b, '[')
	for _, o := range objs {
		d, err := odata.DecodeDraft([]byte(o.Raw))
		if err != nil {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = appendListed(b, Listed{ETag: o.Get(gjson.Escape("odata.etag")).String(), Timestamp: o.Get("Timestamp").String(), Draft: draftOf(d, o.Raw)})
	}
	return append(b, ']')
}

// appendListed writes l as JSON with encoding/json's names and nulls
// (TestReadEntitiesJSONMatchesMarshal).
func appendListed(b []byte, l Listed) []byte {
	b = append(b, '{')
	if l.ETag != "" {
		b = append(b, `"etag":`...)
		b = edm.AppendJSONString(b, l.ETag)
		b = append(b, ',')
	}
	if l.Timestamp != "" {
		b = append(b, `"timestamp":`...)
		b = edm.AppendJSONString(b, l.Timestamp)
		b = append(b, ',')
	}
	b = append(b, `"draft":{"PartitionKey":`...)
	b = appendOptional(b, l.Draft.PartitionKey)
	b = append(b, `,"RowKey":`...)
	b = appendOptional(b, l.Draft.RowKey)
	b = append(b, `,"properties":[`...)
	for i, r := range l.Draft.Properties {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = edm.AppendJSONString(b, r.Name)
		b = append(b, `,"type":`...)
		b = edm.AppendJSONString(b, r.Type)
		b = append(b, `,"text":`...)
		b = edm.AppendJSONString(b, r.Text)
		b = append(b, '}')
	}
	return append(b, "]}}"...)
}

func appendOptional(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return edm.AppendJSONString(b, *s)
}

// DraftBody writes an editor draft as an OData entity body for the JSON mode,
// also when values do not parse (the text is kept, so switching modes loses
// nothing): keys first, then each property with its annotation where its type
// needs one, values formatted as the engine writes them.
func (a *API) DraftBody(draftJSON []byte) []byte {
	var d Draft
	if err := readJSON(draftJSON, &d); err != nil {
		return errorJSON("not a draft: " + err.Error())
	}
	b := []byte{'{'}
	comma := func() {
		if len(b) > 1 {
			b = append(b, ',')
		}
	}
	key := func(name string, v *string) {
		if v == nil {
			return
		}
		comma()
		b = edm.AppendJSONString(b, name)
		b = append(b, ':')
		b = edm.AppendJSONString(b, *v)
	}
	key(entity.PartitionKey, d.PartitionKey)
	key(entity.RowKey, d.RowKey)
	for _, r := range d.Properties {
		comma()
		annotation, value := rowJSON(r)
		if annotation != "" {
			b = edm.AppendJSONString(b, r.Name+"@odata.type")
			b = append(b, ':')
			b = edm.AppendJSONString(b, annotation)
			b = append(b, ',')
		}
		b = edm.AppendJSONString(b, r.Name)
		b = append(b, ':')
		b = append(b, value...)
	}
	b = append(b, '}')
	return mustJSON(map[string]string{"body": string(b)})
}

// rowJSON is one editor row as body JSON: its odata.type annotation ("" when
// the value needs none) and the value, formatted as the engine writes it.
// Text that is not a value of its type (or an unknown type) is kept as a
// string, annotated, so the JSON mode shows the same violation.
func rowJSON(r Row) (string, []byte) {
	t, ok := edmType(r.Type)
	if !ok {
		return r.Type, edm.AppendJSONString(nil, r.Text)
	}
	v, err := edm.ParseString(t, r.Text)
	if err != nil {
		return t.String(), edm.AppendJSONString(nil, r.Text)
	}
	annotation := ""
	if v.NeedsAnnotation() || t == edm.Double {
		// Doubles are annotated too: an integral 2.0 would otherwise read
		// back as an Int32 if a tool reformats the text.
		annotation = t.String()
	}
	return annotation, v.AppendJSON(nil)
}
