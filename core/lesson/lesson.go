package lesson

import (
	"encoding/json"

	"github.com/tableplay/tableplay/core/play"
)

// Lesson is one lesson document (lessons/<id>.json).
type Lesson struct {
	// ID names the lesson and its file: lower-case letters, digits and '-'.
	ID string `json:"id"`
	// Order places the lesson in the menu (1 first).
	Order int `json:"order"`
	// Title heads the lesson and its menu line.
	Title   string `json:"title"`
	Line    string `json:"line"`    // one line for the menu
	Summary string `json:"summary"` // one paragraph
	// Section is the part of the data-model page the lesson teaches.
	Section Section `json:"section"`
	// Lang names the language the lesson is written in (en, pl, ja or fr);
	// a lesson recorded in the page says which, a gallery lesson is English.
	Lang string `json:"lang,omitempty"`
	// Clients is set (to ["A", "B"]) by lessons that show two clients side by side.
	Clients []string `json:"clients,omitempty"`
	// Start is the account the lesson starts from, in the snapshot format.
	Start json.RawMessage `json:"start"`
	// Generate adds seeded datasets to Start's tables.
	Generate []Dataset `json:"generate,omitempty"`
	// Steps are run in order; a lesson has 3 to 8.
	Steps []Step `json:"steps"`
}

// Section is the part of the data-model page the lesson teaches.
type Section struct {
	// Title is the section's heading on that page.
	Title string `json:"title"`
	// URL links to the section (an https address).
	URL string `json:"url"`
}

// Step is one step: prose, exactly one thing to do, an optional prediction
// and the expected outcome.
type Step struct {
	// Title heads the step.
	Title string `json:"title"`
	// Text is what the step says before the prediction and the run: plain
	// text with `code` spans marked by backquotes. It sets the question up
	// and never gives its answer away.
	Text string `json:"text"`
	// Explain is what the step says after the run: why the engine answered
	// as it did. {placeholders} are filled from the engine's answer (see
	// Explanation), so the figures shown are the ones just measured.
	Explain string `json:"explain"`
	// Note says where the published documents disagree with the service;
	// it is shown with the explanation.
	Note string `json:"note,omitempty"`

	// One of these four is the step's action.
	Operation *play.Operation `json:"operation,omitempty"`
	// Draft is an entity to check, as the editor would.
	Draft *play.Draft `json:"draft,omitempty"`
	// TableName is a table name to check against the naming rules.
	TableName *string `json:"tableName,omitempty"`
	// Filter is a $filter to parse and explain.
	Filter *string `json:"filter,omitempty"`

	// Client names who sends the operation (two-client lessons).
	Client string `json:"client,omitempty"`
	// IfMatchFrom puts the ETag a client holds into the operation's If-Match.
	IfMatchFrom string `json:"ifMatchFrom,omitempty"`
	// Continue sends a query from the continuation of the previous query step.
	Continue bool `json:"continue,omitempty"`
	// Body, when set, is sent as the write's body instead of the draft's,
	// for what a draft cannot say (untyped JSON numbers, say); the draft
	// still names the keys.
	Body *string `json:"body,omitempty"`
	// SAS signs the operation with a shared access signature instead of the
	// account key.
	SAS *SAS `json:"sas,omitempty"`
	// Profile, when set, sends the operation to a copy of the account as it
	// stands that answers as this profile (docs/profiles.md), so a lesson
	// can show what Azurite or Cosmos answers to the same request; what the
	// step writes stays in that copy.
	Profile string `json:"profile,omitempty"`

	// Predict asks the reader to guess the outcome first; nil asks nothing.
	Predict *Prediction `json:"predict,omitempty"`
	// Expect is what the step must produce.
	Expect Expect `json:"expect"`
}

// SAS describes a table SAS the lesson signs with the well-known key.
type SAS struct {
	// Permissions are the granted letters, such as "r" or "ra".
	Permissions string `json:"permissions"`
	// StartPK is the lowest PartitionKey granted; empty leaves the range
	// open at the start.
	StartPK string `json:"startPk,omitempty"`
	// StartRK is the lowest RowKey granted within StartPK.
	StartRK string `json:"startRk,omitempty"`
	// EndPK is the highest PartitionKey granted; empty leaves it open at the end.
	EndPK string `json:"endPk,omitempty"`
	// EndRK is the highest RowKey granted within EndPK.
	EndRK string `json:"endRk,omitempty"`
}

// Prediction is the question asked before the answer is shown.
type Prediction struct {
	// Question is what the reader is asked.
	Question string `json:"question"`
	// Choices are the 2 to 4 answers offered; only the right one may name
	// the expected status.
	Choices []string `json:"choices"`
	Answer  int      `json:"answer"` // index into Choices
}

// Expect is what a step claims. Only the fields set are compared; a step
// must set at least one that fits its action.
type Expect struct {
	// Operations: the status and, for errors, the error code.
	Status int `json:"status,omitempty"`
	// Code is the error code; with Status set, empty means no error code.
	Code string `json:"code,omitempty"`
	// Drafts, table names and filters: whether they pass, and the rule ids
	// broken, in the order the engine reports them.
	Valid *bool `json:"valid,omitempty"`
	// Rules are the ids of the broken rules, in order.
	Rules []string `json:"rules,omitempty"`
	// Drafts: the size by the published formula and the property count.
	Size *int `json:"size,omitempty"`
	// Count is the property count (keys and Timestamp included).
	Count *int `json:"count,omitempty"`
	// Filters: the canonical form.
	Canonical string `json:"canonical,omitempty"`
	// Queries: the RowKeys of the page in order, how many entities were
	// examined and returned, and whether a continuation came back.
	RowKeys []string `json:"rowKeys,omitempty"`
	// Scanned is how many entities the query examined.
	Scanned *int `json:"scanned,omitempty"`
	// Returned is how many entities the page holds.
	Returned *int `json:"returned,omitempty"`
	// More says whether a continuation came back.
	More *bool `json:"more,omitempty"`
	// Batches: the index of the failing operation.
	FailedIndex *int `json:"failedIndex,omitempty"`
	// The answer body: properties carrying an @odata.type annotation (every
	// one of them, in body order), and texts it contains.
	Annotated *[]string `json:"annotated,omitempty"`
	// Contains are texts the answer body must contain.
	Contains []string `json:"contains,omitempty"`
	// Entity is the stored entity afterwards (the operation's keys).
	Entity *EntityAfter `json:"entity,omitempty"`
}

// EntityAfter is an entity's state after a step: gone, or its properties
// (besides the keys and Timestamp) with their types and values.
type EntityAfter struct {
	// Absent says the entity does not exist.
	Absent bool `json:"absent,omitempty"`
	// Properties are its custom properties, compared by name.
	Properties []play.Row `json:"properties,omitempty"`
}
