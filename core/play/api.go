package play

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// API answers the playground's calls. Base is the account URL requests and
// bodies use (e.g. http://127.0.0.1:10002/devstoreaccount1); Clock stamps
// previews and request dates.
type API struct {
	// Base is the account URL the built requests and bodies use.
	Base string
	// Clock gives the time for previews, request dates and SAS start times.
	Clock func() time.Time
	// Creds are the account name and key the built requests are signed with.
	Creds rest.Credentials
	// SAS, when set, is a shared access signature's query string the built
	// requests carry instead of an Authorization header (a remote endpoint
	// reached with a SAS, see Connect).
	SAS string
	// Store, when set, lets QueryStats and Reset reach the account itself.
	Store *store.Store
	// Handler, when set, answers Run's requests (the account's Table API).
	Handler *rest.Handler
	// Locale is the reader's language for the texts the answers carry
	// (rule cards, explanations, notes); nil keeps rule cards as the
	// engine writes them and answers other texts with their ids. The page
	// sets it per call (In).
	Locale *locale.Locale
}

// In is a copy of a whose texts are in loc.
func (a *API) In(loc *locale.Locale) *API {
	c := *a
	c.Locale = loc
	return &c
}

// errorJSON is the answer to input the API cannot read at all.
func errorJSON(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"error": msg})
	return b
}

// readJSON decodes the page's JSON input, its nesting bounded first by an
// iterative scan (no parser sees a hostile document).
func readJSON(b []byte, v any) error {
	if !odata.WithinDepth(b, odata.MaxDepth) {
		return errors.New("the JSON nests objects or arrays too deeply")
	}
	return json.Unmarshal(b, v)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return errorJSON(err.Error())
	}
	return b
}

// TableNameReport is ValidateTableName's answer.
type TableNameReport struct {
	// Valid says the name breaks no rule.
	Valid bool `json:"valid"`
	// Violations are the rules the name breaks, with the service's answers.
	Violations []Card `json:"violations"`
}

// ValidateTableName reports every rule a table name breaks.
func (a *API) ValidateTableName(name string) []byte {
	v := cards(a.Locale, entity.TableNameViolations(name))
	return mustJSON(TableNameReport{Valid: len(v) == 0, Violations: v})
}

// EntityReport is ValidateEntity's answer: every violation in the order the
// service reports them (the first is what the service would answer), the
// size by the published formula and the property count, with their limits.
type EntityReport struct {
	// Valid says the draft breaks no rule.
	Valid bool `json:"valid"`
	// Violations are the broken rules, the service's answer first.
	Violations []Card `json:"violations"`
	// Size is the entity's size in bytes by the published formula.
	Size int `json:"size"`
	// SizeLimit is the most Size may be.
	SizeLimit int `json:"sizeLimit"`
	// Count is the property count, keys and Timestamp included.
	Count int `json:"count"`
	// CountLimit is the most Count may be.
	CountLimit int `json:"countLimit"`
}

// ValidateEntity checks an editor draft (JSON of Draft).
func (a *API) ValidateEntity(draftJSON []byte) []byte {
	var d Draft
	if err := readJSON(draftJSON, &d); err != nil {
		return errorJSON("not a draft: " + err.Error())
	}
	r := entity.Check(d.fields())
	v := cards(a.Locale, r.Violations)
	return mustJSON(EntityReport{Valid: len(v) == 0, Violations: v, Size: r.Size, SizeLimit: entity.MaxEntitySize, Count: r.Count, CountLimit: entity.MaxProperties})
}

// Preview is PreviewEntity's answer: the body an SDK sends to insert the
// entity, and the bodies the engine returns for it at each metadata level
// (or the violations that stop it).
type Preview struct {
	// Valid says the draft breaks no rule, so the bodies below exist.
	Valid bool `json:"valid"`
	// Violations are the broken rules that stop it; empty when Valid.
	Violations []Card `json:"violations,omitempty"`
	// Request is the JSON body an SDK sends to insert the entity.
	Request string `json:"request,omitempty"`
	// Responses maps each metadata level asked for ("nometadata",
	// "minimalmetadata", "fullmetadata") to the body returned at it.
	Responses map[string]string `json:"responses,omitempty"`
}

// PreviewEntity renders a draft on the wire for table. level is one of
// "nometadata", "minimalmetadata", "fullmetadata", or "" for all three.
func (a *API) PreviewEntity(draftJSON []byte, table, level string) []byte {
	var d Draft
	if err := readJSON(draftJSON, &d); err != nil {
		return errorJSON("not a draft: " + err.Error())
	}
	r := entity.Check(d.fields())
	if len(r.Violations) > 0 {
		return mustJSON(Preview{Violations: cards(a.Locale, r.Violations)})
	}
	e := r.Entity
	e.Timestamp = edm.TicksFromTime(a.Clock())
	levels := []odata.Level{odata.NoMetadata, odata.MinimalMetadata, odata.FullMetadata}
	if level != "" {
		l, ok := odata.ParseLevel(level)
		if !ok {
			return errorJSON("unknown metadata level " + level)
		}
		levels = []odata.Level{l}
	}
	p := Preview{Valid: true, Request: string(sdkBody(e)), Responses: map[string]string{}}
	for _, l := range levels {
		c := &odata.Context{Base: a.Base, Account: a.Creds.Account, Table: table, Level: l}
		p.Responses[l.String()] = string(odata.AppendEntity(nil, c, e, nil))
	}
	return mustJSON(p)
}

// Reset empties the account: no tables, the default service properties.
func (a *API) Reset() string {
	if a.Store == nil {
		return "no account"
	}
	if err := a.Store.Restore([]byte(`{"format":"` + store.SnapshotFormat + `","version":1,"tables":[]}`)); err != nil {
		return err.Error()
	}
	return ""
}
