package tableerr

// Decision is one entry of docs/fidelity.md as a reader meets it on a rule
// card: its id, its heading in words and how sure the evidence is.
type Decision struct {
	// ID is the entry's id, such as "F-SIZE-FORMULA".
	ID string `json:"id"`
	// Title is the entry's heading in words.
	Title      string `json:"title"`
	Confidence string `json:"confidence"` // high, medium or low
}

// LookupDecision returns the docs/fidelity.md entry with this id
// (TestDecisionsMatchFidelity keeps the two in step).
func LookupDecision(id string) (Decision, bool) {
	for _, d := range decisions() {
		if d.ID == id {
			return d, true
		}
	}
	return Decision{}, false
}

// decisions lists every entry of docs/fidelity.md in its order.
func decisions() []Decision {
	return []Decision{
		{"F-TABLE-RESERVED", "the reserved name tables", "medium"},
		{"F-TABLE-NAME-ERRORS", "which code a bad table name gets", "high"},
		{"F-TABLE-NAME-ANY-REQUEST", "a bad table name in an entity, query, ACL or batch request", "medium"},
		{"F-TABLE-LIST-ORDER", "listing tables and NextTableName", "high"},
		{"F-CREATE-TABLE-EMPTY", "a creation body without TableName", "low"},
		{"F-NOT-FOUND", "which \"not found\" code", "high"},
		{"F-KEY-SIZE", "how long a key may be", "medium"},
		{"F-KEY-CHARACTERS", "forbidden characters in keys", "medium"},
		{"F-KEY-UTF8", "keys whose bytes are not UTF-8", "low"},
		{"F-PROPERTY-NAMES", "what a property name may be", "medium"},
		{"F-STRING-SIZE", "the longest string", "medium"},
		{"F-SIZE-FORMULA", "how an entity's size is measured", "medium"},
		{"F-ENTITY-SIZE", "the 1 MiB entity limit", "medium"},
		{"F-SIZE-ORDER", "which size error comes first", "medium"},
		{"F-PROPERTY-COUNT", "how many properties", "high"},
		{"F-NUMBER-INFERENCE", "JSON numbers without an annotation", "high"},
		{"F-ANNOTATED-VALUES", "values that do not parse as their annotation", "medium"},
		{"F-STRING-TYPED-VALUES", "Int32 and Boolean values sent as JSON strings", "high"},
		{"F-INT64-QUOTED", "a bare JSON number annotated Edm.Int64", "medium"},
		{"F-DOUBLE-TEXT", "how a Double is written", "high"},
		{"F-JSON-NON-ASCII", "characters beyond ASCII in JSON answers", "high"},
		{"F-ODATA-ETAG", "odata.etag at minimal metadata", "high"},
		{"F-TIMESTAMP-ETAG", "Timestamp resolution and the ETag", "high"},
		{"F-TIMESTAMP-END", "a Timestamp at the end of the DateTime range", "low"},
		{"F-READ-ONLY-ACCOUNT", "changes when the data directory takes no writes", "low"},
		{"F-IF-MATCH", "conditional writes", "high"},
		{"F-DELETE-IF-MATCH", "DELETE without If-Match", "low"},
		{"F-HEADERS", "headers on every answer", "high"},
		{"F-ACCEPT", "answering without a JSON Accept", "medium"},
		{"F-PREFER", "Prefer and Preference-Applied", "high"},
		{"F-X-HTTP-METHOD", "method tunnelling", "medium"},
		{"F-QUERY-COMP-TWICE", "a query that names comp twice", "low"},
		{"F-FILTER-FORMS", "which filters are refused", "medium"},
		{"F-FILTER-EMPTY", "an empty $filter", "high"},
		{"F-FILTER-BOOLEAN", "true, false and True in $filter", "low"},
		{"F-TYPED-COMPARISON", "comparing typed values", "medium"},
		{"F-SELECT-MISSING", "$select of a missing property", "high"},
		{"F-TOP-RANGE", "$top", "medium"},
		{"F-TOP-ZERO", "$top=0", "medium"},
		{"F-CONTINUATION-TOKEN", "entity continuation tokens", "high"},
		{"F-CONTINUATION-LOOKAHEAD", "when a continuation is sent", "low"},
		{"F-PAGE-BYTES", "how large a query page may be", "medium"},
		{"F-BATCH-FAILURE", "a failing operation in a batch", "high"},
		{"F-BATCH-FRAMING", "the batch answer's bytes", "high"},
		{"F-BATCH-ENVELOPE", "what a batch request may look like", "medium"},
		{"F-CORS-PREFLIGHT", "preflight answers", "high"},
		{"F-CORS-VARY", "when Vary: Origin is sent", "medium"},
		{"F-CORS-LIMITS", "how many CORS rules, and how long", "high"},
		{"F-STATS-SECONDARY", "service stats and the secondary endpoint", "high"},
		{"F-UNKNOWN-PATH", "a path that names nothing", "medium"},
		{"F-DEFAULT-PROPERTIES", "a new account's service properties", "medium"},
		{"F-ACL-EMPTY-POLICY", "access policies without times", "high"},
		// Cosmos DB for Table (the cosmos profile, docs/profiles.md).
		{"F-COSMOS-TABLE-CASE", "table names keep their case", "medium"},
		{"F-COSMOS-TABLE-NAMES", "table names beyond letters and digits", "medium"},
		{"F-COSMOS-ORDER", "query results not in key order", "low"},
		{"F-COSMOS-TABLE-ORDER", "table listings in no name order", "high"},
		{"F-COSMOS-TOKENS", "continuation tokens", "high"},
		{"F-COSMOS-ROWKEY-SIZE", "a RowKey of at most 255 bytes", "medium"},
		{"F-COSMOS-BATCH-SIZE", "a batch of at most 2 MB", "medium"},
		{"F-COSMOS-NO-CORS", "no CORS", "medium"},
		{"F-COSMOS-NO-ACL", "no stored access policies", "low"},
		{"F-COSMOS-NO-SERVICE", "no service properties or statistics", "low"},
		{"F-COSMOS-RESERVED-NAMES", "property names Cosmos keeps for itself", "low"},
		{"F-COSMOS-ETAG-PROPERTY", "a property named etag", "medium"},
		{"F-COSMOS-EMPTY-KEYS", "an empty PartitionKey or RowKey", "medium"},
		{"F-COSMOS-ERRORS", "the error body", "high"},
		{"F-COSMOS-HEADERS", "the answer's header fields", "high"},
		{"F-COSMOS-BODIES", "the JSON bodies", "high"},
		{"F-COSMOS-KEY-POSITION", "keys where the client put them", "high"},
		{"F-COSMOS-BATCH-LAYOUT", "the batch answer's framing", "high"},
		{"F-COSMOS-TOP", "$top above 1,000", "medium"},
		// Azurite 3.37 (the azurite-3.37 profile, docs/profiles.md).
		{"F-AZURITE-SERVER", "the Server header", "high"},
		{"F-AZURITE-VERSION", "x-ms-version of the answer", "high"},
		{"F-AZURITE-BARE-HEADERS", "no Cache-Control, no X-Content-Type-Options", "high"},
		{"F-AZURITE-CONTENT-TYPE", "the JSON media type", "high"},
		{"F-AZURITE-NO-LOCATION", "no Location, no DataServiceId", "high"},
		{"F-AZURITE-PREFER-ECHO", "Preference-Applied without Prefer", "high"},
		{"F-AZURITE-PREFER-UPDATE", "updates ignore Prefer", "high"},
		{"F-AZURITE-ERROR-CODE-HEADER", "x-ms-error-code on JSON errors", "high"},
		{"F-AZURITE-ERROR-TIME", "three digits in an error's Time line", "high"},
		{"F-AZURITE-EMPTY-CODE", "errors with an empty code, and Azurite's words", "high"},
		{"F-AZURITE-TIMESTAMP", "how Timestamp and ETags are written", "high"},
		{"F-AZURITE-GET-TABLE", "reading one table", "high"},
		{"F-AZURITE-QUERY-METADATA", "odata.metadata of a query page", "high"},
		{"F-AZURITE-SELECT", "$select of a single entity", "high"},
		{"F-AZURITE-DOUBLE", "doubles printed as JavaScript numbers", "high"},
		{"F-AZURITE-BATCH-500", "the $batch requests Azurite fails on", "high"},
		{"F-AZURITE-BATCH-ANSWER", "the $batch answer Azurite writes", "high"},
		{"F-AZURITE-PROPERTY-ORDER", "the order of properties after a write", "high"},
		{"F-AZURITE-LAX-VALUES", "values and headers Azurite does not check", "high"},
		{"F-AZURITE-TOKENS", "continuation tokens", "high"},
		{"F-AZURITE-XML", "XML bodies and CORS", "high"},
		{"F-AZURITE-REPLAYED", "what the SDKs' live exchanges show of Azurite besides", "medium"},
	}
}
