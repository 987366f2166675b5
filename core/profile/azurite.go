package profile

import "strings"

// Azurite337 is Azurite 3.37's table service, as its recorded answers to
// the transcripts' requests show it (core/rest/testdata/azurite); each
// field names its docs/fidelity.md entry.
func Azurite337() Profile {
	return Profile{
		Name:  "azurite-3.37",
		Title: "Azurite 3.37",
		Emulator: Emulator{
			Server:           "Azurite-Table/3.37.0", // F-AZURITE-SERVER
			AnswerVersion:    "2026-06-06",           // F-AZURITE-VERSION
			BareHeaders:      true,                   // F-AZURITE-BARE-HEADERS
			PlainContentType: true,                   // F-AZURITE-CONTENT-TYPE
			NoLocation:       true,                   // F-AZURITE-NO-LOCATION
			AlwaysPreference: true,                   // F-AZURITE-PREFER-ECHO
			ErrorCodeHeader:  true,                   // F-AZURITE-ERROR-CODE-HEADER
			ErrorTimeMillis:  true,                   // F-AZURITE-ERROR-TIME
			Rewrites: []Rewrite{ // F-AZURITE-EMPTY-CODE
				{Match: "table-name-characters", Message: invalidName},
				{Match: "table-name-reserved", Status: 400, Message: invalidName},
				{Match: "table-name-too-short"},
				{Match: "table-name-too-long"},
				{Match: "InvalidInput", Prefix: "Syntax error", Code: "InvalidInput", Message: "The query condition specified in the request is invalid."},
			},
			PlainSelect:          true, // F-AZURITE-SELECT
			FixedTimestamp:       true, // F-AZURITE-TIMESTAMP
			TimestampLast:        true, // F-AZURITE-TIMESTAMP
			TableReadIsList:      true, // F-AZURITE-GET-TABLE
			TableNotFoundRead:    true, // F-AZURITE-GET-TABLE
			QueryElementURL:      true, // F-AZURITE-QUERY-METADATA
			BatchCrashes:         true, // F-AZURITE-BATCH-500
			BatchAnswer:          true, // F-AZURITE-BATCH-ANSWER
			DeleteWithoutIfMatch: true, // F-AZURITE-LAX-VALUES
			UncappedTop:          true, // F-AZURITE-LAX-VALUES
			UpdatesIgnorePrefer:  true, // F-AZURITE-PREFER-UPDATE
			JSNumbers:            true, // F-AZURITE-DOUBLE
		},
	}
}

// Emulator is how an emulator's answers differ from the service's in
// their headers and the form of their bodies. The zero value differs in
// nothing.
type Emulator struct {
	// Server, when set, is the Server header's value (F-AZURITE-SERVER).
	Server string
	// AnswerVersion, when set, is the x-ms-version of every answer,
	// whatever version the request asked for (F-AZURITE-VERSION).
	AnswerVersion string
	// BareHeaders leaves out Cache-Control and X-Content-Type-Options
	// (F-AZURITE-BARE-HEADERS).
	BareHeaders bool
	// PlainContentType types a successful JSON answer without
	// ";streaming=true;charset=utf-8" and gives a 204 the JSON
	// Content-Type of minimal metadata (F-AZURITE-CONTENT-TYPE).
	PlainContentType bool
	// NoLocation leaves out Location and DataServiceId on create table and
	// insert (F-AZURITE-NO-LOCATION).
	NoLocation bool
	// AlwaysPreference answers Preference-Applied: return-content to a
	// create table or insert that sent no Prefer (F-AZURITE-PREFER-ECHO).
	AlwaysPreference bool
	// ErrorCodeHeader sends x-ms-error-code with every JSON error whose
	// code is not empty (F-AZURITE-ERROR-CODE-HEADER).
	ErrorCodeHeader bool
	// ErrorTimeMillis writes an error message's Time line with three
	// fractional digits (F-AZURITE-ERROR-TIME).
	ErrorTimeMillis bool
	// Rewrites are errors answered with another code (empty, as a rule),
	// status or message (F-AZURITE-EMPTY-CODE); the first that matches
	// applies.
	Rewrites []Rewrite
	// PlainSelect answers a $select without it in odata.metadata and
	// without the selected properties an entity lacks (F-AZURITE-SELECT).
	PlainSelect bool
	// FixedTimestamp writes every Timestamp and ETag time with all seven
	// fractional digits (F-AZURITE-TIMESTAMP).
	FixedTimestamp bool
	// TimestampLast writes an entity's Timestamp after its other
	// properties (F-AZURITE-TIMESTAMP).
	TimestampLast bool
	// TableReadIsList answers a read of one existing table with an empty
	// list, {"value":[]} (F-AZURITE-GET-TABLE).
	TableReadIsList bool
	// TableNotFoundRead answers a read of a missing table with
	// TableNotFound instead of ResourceNotFound (F-AZURITE-GET-TABLE).
	TableNotFoundRead bool
	// QueryElementURL writes a query page's odata.metadata as
	// …/$metadata#Tables/@Element, without the table or a $select
	// (F-AZURITE-QUERY-METADATA).
	QueryElementURL bool
	// BatchCrashes answers a bare 500 to a $batch whose envelope is
	// malformed, whose parts' URLs are relative or whose changeset is
	// empty (F-AZURITE-BATCH-500).
	BatchCrashes bool
	// BatchAnswer lays out a changeset's answer as Azurite does
	// (F-AZURITE-BATCH-ANSWER): the request's boundaries renamed, a failed
	// part numbered by its position, no Preference-Applied in parts.
	BatchAnswer bool
	// DeleteWithoutIfMatch deletes an entity whatever its ETag when a
	// Delete Entity request carries no If-Match (F-AZURITE-LAX-VALUES).
	DeleteWithoutIfMatch bool
	// UncappedTop takes a $top above 1,000 (read here as 1,000) instead
	// of refusing it (F-AZURITE-LAX-VALUES).
	UncappedTop bool
	// UpdatesIgnorePrefer answers update, merge and their upserts with 204
	// and no Preference-Applied whatever Prefer asks (F-AZURITE-PREFER-UPDATE).
	UpdatesIgnorePrefer bool
	// JSNumbers writes a Double as JavaScript prints a number: an
	// integral one without a fraction (and so read back as Int32 or
	// Int64), an exponent without padding (F-AZURITE-DOUBLE).
	JSNumbers bool
}

// invalidName is Azurite's message for a table name it refuses, spelled
// right (the service's own message misspells "specified").
const invalidName = "The specified resource name contains invalid characters."

// Rewrite is one error an emulator answers differently: the error whose
// broken rule's id, or else whose code, is Match gets Code (empty when
// unset), and Status and Message when set.
type Rewrite struct {
	// Match is a rule id (core/entity's) or an error code.
	Match string
	// Code is the code answered instead; empty, as Azurite sends it, when
	// unset.
	Code string
	// Status, when set, is the HTTP status answered instead.
	Status int
	// Message, when set, is the message answered instead.
	Message string
	// Prefix, when set, narrows Match to the errors whose message starts
	// with it.
	Prefix string
}

// Rewrite returns the rewrite for an error of code and message that broke
// the rule with id rule ("" for none), and whether there is one.
func (e *Emulator) Rewrite(rule, code, message string) (Rewrite, bool) {
	for _, r := range e.Rewrites {
		if (r.Match == rule && rule != "" || r.Match == code) && strings.HasPrefix(message, r.Prefix) {
			return r, true
		}
	}
	return Rewrite{}, false
}

// BodyForms reports whether the emulator writes entity bodies in a form of
// its own (a Timestamp's digits or place, a query's metadata URL).
func (e *Emulator) BodyForms() bool {
	return e.FixedTimestamp || e.TimestampLast || e.QueryElementURL || e.PlainSelect || e.JSNumbers
}
