package play

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Draft is an entity as the editor holds it: the two keys (absent keys are
// null) and rows of name, Edm type and text.
type Draft struct {
	// PartitionKey is the key as typed; nil when the draft has none.
	PartitionKey *string `json:"PartitionKey"`
	// RowKey is the key as typed; nil when the draft has none.
	RowKey *string `json:"RowKey"`
	// Properties are the custom property rows, in the editor's order.
	Properties []Row `json:"properties"`
}

// Row is one property row of the editor. Type is an Edm type name such as
// "Edm.Int64" (or "Int64"); empty means Edm.String.
type Row struct {
	// Name is the property name.
	Name string `json:"name"`
	// Type is the Edm type name; empty means Edm.String.
	Type string `json:"type"`
	// Text is the value as text, parsed by Type (and kept when it does not
	// parse, so the editor loses nothing).
	Text string `json:"text"`
}

// edmType reads a type name with or without the "Edm." prefix.
func edmType(name string) (edm.Type, bool) {
	if name == "" {
		return edm.String, true
	}
	if !strings.HasPrefix(name, "Edm.") {
		name = "Edm." + name
	}
	return edm.ParseType(name)
}

// fields turns the draft into entity fields, each value parsed from its text
// by its type.
func (d Draft) fields() entity.Draft {
	var out entity.Draft
	if d.PartitionKey != nil {
		out.Fields = append(out.Fields, entity.Field{Name: entity.PartitionKey, Value: edm.StringValue(*d.PartitionKey)})
	}
	if d.RowKey != nil {
		out.Fields = append(out.Fields, entity.Field{Name: entity.RowKey, Value: edm.StringValue(*d.RowKey)})
	}
	for _, r := range d.Properties {
		f := entity.Field{Name: r.Name}
		t, ok := edmType(r.Type)
		if !ok {
			f.Err = edm.UnknownTypeError(r.Type)
		} else if v, err := edm.ParseString(t, r.Text); err != nil {
			f.Err = err
		} else {
			f.Value = v
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// Card is one violation as the page renders it: the service's error and the
// rule behind it.
type Card struct {
	// Code is the service's error code, such as "PropertyValueTooLarge".
	Code string `json:"code"`
	// Status is the HTTP status the service answers with.
	Status int `json:"status"`
	// Message is the service's error message.
	Message string `json:"message"`
	// Rule is the rule broken, the ids in its dispute named by heading; nil when
	// the error carries none.
	Rule *tableerr.Rule `json:"rule,omitempty"`
	// Decisions are the docs/fidelity.md entries the rule's dispute cites,
	// with their headings, so the page can name them in words.
	Decisions []tableerr.Decision `json:"decisions,omitempty"`
	// Profiles are where Cosmos DB for Table or Azurite answer this rule
	// otherwise (core/profile's differences), said in words.
	Profiles []profile.Difference `json:"profiles,omitempty"`
}

// cardOf is e's card in the locale's words (the service's code and message
// stay as the service sends them).
func cardOf(loc *locale.Locale, e *tableerr.Error) Card {
	c := Card{Code: string(e.Code), Status: e.Status, Message: e.Message}
	if e.Rule == nil {
		return c
	}
	c.Profiles = LocalDifferences(loc, profile.DifferencesFor(e.Rule.ID))
	// The rule is shared by every error that cites it: rewrite a copy.
	r := localRule(loc, *e.Rule)
	if r.Dispute != "" {
		r.Dispute = replaceDecisionIDs(r.Dispute, func(m string) string {
			id := strings.Trim(m, "()")
			d, ok := tableerr.LookupDecision(id)
			if !ok {
				return m
			}
			c.Decisions = append(c.Decisions, d)
			if loc == nil {
				return "(see the fidelity note “" + d.Title + "”, " + id + ", confidence " + d.Confidence + ")"
			}
			return loc.T(msgFidelityNote, "title", d.Title, "id", id, "confidence", d.Confidence)
		})
	}
	c.Rule = &r
	return c
}

func cards(loc *locale.Locale, es []*tableerr.Error) []Card {
	out := make([]Card, len(es))
	for i, e := range es {
		out[i] = cardOf(loc, e)
	}
	return out
}
