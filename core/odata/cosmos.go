package odata

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The bodies of the cosmos profile (F-COSMOS-BODIES), as the Cosmos DB
// for Table endpoint wrote them in the SDKs' recordings: a feed's or a
// table's odata.metadata comes last; an entity's metadata URL names its
// table ({base}/{table}/$metadata#{table}/@Element); the custom properties
// keep the order they were stored in and Timestamp comes last; every
// DateTime is written with seven fractional digits.

// appendTrailingMetadata closes an object whose odata.metadata comes last.
func appendTrailingMetadata(b []byte, c *Context, suffix string) []byte {
	if c.Level != NoMetadata {
		b = append(b, `,"odata.metadata":`...)
		b = edm.AppendJSONString(b, c.Base+suffix)
	}
	return append(b, '}')
}

// appendCosmosEntity is AppendEntity in the Cosmos shape.
func appendCosmosEntity(b []byte, c *Context, e *entity.Entity, sel *Projection) []byte {
	b = append(b, '{')
	first := true
	if c.Level != NoMetadata {
		b = append(b, `"odata.metadata":"`...)
		b = edm.AppendJSONStringContent(b, c.Base)
		b = append(b, '/')
		b = edm.AppendJSONStringContent(b, c.Table)
		b = append(b, "/$metadata#"...)
		b = edm.AppendJSONStringContent(b, c.Table)
		b = append(b, "/@Element"...)
		if sel != nil {
			b = append(b, "&$select="...)
			b = edm.AppendJSONStringContent(b, sel.Text)
		}
		b = append(b, '"')
		first = false
	}
	s := sel.prepare()
	b = appendCosmosMembers(b, c, e, &s, first)
	return append(b, '}')
}

// appendCosmosEntities is AppendEntitiesWithin in the Cosmos shape.
func appendCosmosEntities(b []byte, c *Context, es []*entity.Entity, sel *Projection, limit int) ([]byte, int) {
	s := sel.prepare()
	start := len(b)
	b = append(b, `{"value":[`...)
	tail := 64 + len(c.Base) + len(c.Table)
	if sel != nil {
		tail += len(sel.Text)
	}
	b, wrote := appendObjectsWithin(b, es, start, tail, limit, func(b []byte, e *entity.Entity) []byte {
		return appendCosmosMembers(b, c, e, &s, true)
	})
	b = append(b, ']')
	if c.Level == NoMetadata {
		return append(b, '}'), wrote
	}
	b = append(b, `,"odata.metadata":"`...)
	b = edm.AppendJSONStringContent(b, c.Base)
	b = append(b, "/$metadata#"...)
	b = edm.AppendJSONStringContent(b, c.Table)
	if sel != nil {
		b = append(b, "&$select="...)
		b = edm.AppendJSONStringContent(b, sel.Text)
	}
	return append(b, `"}`...), wrote
}

// appendCosmosMembers writes an entity's members: the annotations the
// level asks for, the keys, the custom properties, then Timestamp.
func appendCosmosMembers(b []byte, c *Context, e *entity.Entity, s *selection, first bool) []byte {
	w := memberWriter{b: b, first: first, cosmos: true}
	w.head(c, e, s)
	w.custom(c, e, s)
	if s.all || s.ts {
		w.timestamp(c, e.Timestamp)
	}
	return w.b
}

// appendCosmosETagJSON is appendETagJSON with seven digits.
func appendCosmosETagJSON(b []byte, t edm.Ticks) []byte {
	b = append(b, `"W/\"datetime'`...)
	b = appendTime7URL(b, t)
	return append(b, `'\""`...)
}

// appendCosmosProperty is appendProperty with a DateTime's seven digits.
func appendCosmosProperty(b []byte, l Level, name string, v edm.Value) []byte {
	if v.Type() != edm.DateTime {
		return appendProperty(b, l, name, v)
	}
	if l != NoMetadata {
		b = append(b, '"')
		b = edm.AppendJSONStringContent(b, name)
		b = append(b, annotationSuffix+`":"Edm.DateTime",`...)
	}
	b = edm.AppendJSONString(b, name)
	b = append(b, `:"`...)
	b = appendTime7(b, v.Ticks())
	return append(b, '"')
}

// AppendCosmosError appends the Cosmos endpoint's error body
// (F-COSMOS-ERRORS): the same odata.error object with "en-us", the
// message's own text, a "RequestID:" line and a closing newline, no Time
// line.
func AppendCosmosError(b []byte, e *tableerr.Error, requestID string) []byte {
	b = append(b, `{"odata.error":{"code":`...)
	b = edm.AppendJSONString(b, string(e.Code))
	b = append(b, `,"message":{"lang":"en-us","value":`...)
	msg := make([]byte, 0, len(e.Message)+160)
	msg = appendCosmosMessage(msg, e, requestID)
	msg = append(msg, "\nRequestID:"...)
	msg = append(msg, requestID...)
	msg = append(msg, '\n')
	b = edm.AppendJSONString(b, string(msg))
	return append(b, "}}}"...)
}

// appendCosmosMessage writes an error's message as the Cosmos endpoint
// words it where the recordings show it differing from Storage's; the
// codes it has no recording of keep Storage's words.
func appendCosmosMessage(b []byte, e *tableerr.Error, requestID string) []byte {
	if e.Code == tableerr.PropertiesNeedValue {
		// The Cosmos backend's own words, with its activity (the request
		// id) and its client's identification.
		b = append(b, "PartitionKey/RowKey cannot be empty\r\nActivityId: "...)
		b = append(b, requestID...)
		return append(b, ", documentdb-dotnet-sdk/2.14.0 Host/64-bit MicrosoftWindowsNT/10.0.20348.0"...)
	}
	return append(b, e.Message...)
}
