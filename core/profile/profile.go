package profile

// Profile is one implementation of the Table API, given by how it differs
// from Azure Table Storage. The zero value of every field but Name and
// Title is Azure's behaviour, so a field a profile leaves unset changes
// nothing.
type Profile struct {
	// Name is what --profile and the page's target picker take.
	Name string
	// Title names the implementation for people.
	Title string

	// CaseSensitiveTableNames makes table names that differ only in case
	// name distinct tables (F-COSMOS-TABLE-CASE); Azure folds case.
	CaseSensitiveTableNames bool
	// TableNames is the rule a table name meets: Storage's letters and
	// digits (the zero value) or Cosmos's wider one (F-COSMOS-TABLE-NAMES).
	// core/entity applies it where a table is created, named in a
	// request or loaded from stored data.
	TableNames TableNameRule
	// Order is the order of query results within a page and across pages.
	Order Order
	// MaxRowKeyBytes, when set, bounds a RowKey by its UTF-8 bytes, on
	// top of Azure's 512 UTF-16 code units (F-COSMOS-ROWKEY-SIZE).
	MaxRowKeyBytes int
	// Reserved lists property names, compared without regard to case,
	// that an entity may not carry here (F-COSMOS-RESERVED-NAMES).
	Reserved []string
	// KeptOnce lists property names, compared without regard to case,
	// that an entity keeps once: the first so named is stored and any
	// later one dropped (F-COSMOS-ETAG-PROPERTY).
	KeptOnce []string
	// NonEmptyKeys refuses an entity whose PartitionKey or RowKey is
	// empty with 400 PropertiesNeedValue (F-COSMOS-EMPTY-KEYS); Azure
	// stores empty keys.
	NonEmptyKeys bool
	// MaxBatchBytes, when set, bounds a $batch request's body in bytes
	// instead of the 4 MiB every request may carry (F-COSMOS-BATCH-SIZE).
	MaxBatchBytes int
	// Lacks lists the endpoints this implementation does not serve; a
	// request for one gets Absent.
	Lacks Endpoints
	// Absent is the answer to an endpoint in Lacks.
	Absent Absent
	// Errors is the shape of error bodies and the wording of messages.
	Errors ErrorStyle
	// Bodies is the shape of JSON entity and table bodies: the order of
	// their members, their metadata URLs, the digits of a DateTime.
	Bodies BodyStyle
	// Headers is the set of header fields every answer carries.
	Headers HeaderStyle
	// Tokens is the form of query continuation tokens.
	Tokens TokenStyle

	// The fields below are the azurite-3.37 profile's (see azurite.go):
	// they are left to that profile and read where Azurite decides.

	// Emulator is how an emulator's headers and body forms differ.
	Emulator Emulator
}

// TableNameRule is a rule table names meet.
type TableNameRule int

// The table-name rules.
const (
	// StorageTableNames is Azure Storage's rule: 3 to 63 letters and
	// digits, a letter first, not "tables" (F-TABLE-NAME-ERRORS,
	// F-TABLE-RESERVED).
	StorageTableNames TableNameRule = iota
	// CosmosTableNames is Cosmos DB's rule: 1 to 254 characters of any
	// kind but /, \, # and ?, the last not a space (F-COSMOS-TABLE-NAMES).
	CosmosTableNames
)

// Order is an order of query results.
type Order int

// The orders of query results.
const (
	// KeyOrder sorts by PartitionKey, then RowKey.
	KeyOrder Order = iota
	// WriteOrder returns entities in the order they were last written,
	// whatever their keys (F-COSMOS-ORDER).
	WriteOrder
)

// Endpoints is a set of the service's non-entity endpoints.
type Endpoints uint8

// The endpoints a profile may lack.
const (
	// TableACL is Get and Set Table ACL (?comp=acl on a table).
	TableACL Endpoints = 1 << iota
	// ServiceProperties is Get and Set Table Service Properties.
	ServiceProperties
	// ServiceStats is Get Table Service Stats.
	ServiceStats
	// CORS is the answer to preflights and the CORS header fields.
	CORS
)

// Has reports whether all of e is in s.
func (s Endpoints) Has(e Endpoints) bool { return s&e == e }

// Absent is how an implementation answers an endpoint it does not serve.
type Absent struct {
	// Status is the HTTP status; 0 in a profile that lacks nothing.
	Status int
	// Code is the error code the body carries.
	Code string
}

// ErrorStyle is a shape of error bodies.
type ErrorStyle int

// The error styles.
const (
	// StorageErrors is Azure Storage's odata.error with the service's own
	// messages, RequestId and Time lines.
	StorageErrors ErrorStyle = iota
	// CosmosErrors is Cosmos DB's odata.error whose message carries the
	// Cosmos gateway's text (F-COSMOS-ERRORS).
	CosmosErrors
)

// BodyStyle is a shape of JSON bodies.
type BodyStyle int

// The body styles.
const (
	// StorageBodies put odata.metadata first and the keys and Timestamp
	// before the custom properties.
	StorageBodies BodyStyle = iota
	// CosmosBodies put odata.metadata last in feeds, keep the properties
	// in the order they were sent with Timestamp last, name the table in
	// an entity's metadata URL and write every DateTime with seven
	// fractional digits (F-COSMOS-BODIES).
	CosmosBodies
)

// HeaderStyle is a set of answer header fields.
type HeaderStyle int

// The header styles.
const (
	// StorageHeaders are Azure Storage's: Cache-Control, Server,
	// X-Content-Type-Options, x-ms-version and the media type with
	// streaming and charset parameters (F-HEADERS).
	StorageHeaders HeaderStyle = iota
	// CosmosHeaders are the Cosmos gateway's: no Cache-Control,
	// X-Content-Type-Options or x-ms-version, its own Server, a bare media
	// type, application/json on answers without a body, an ETag on a new
	// table (F-COSMOS-HEADERS).
	CosmosHeaders
)

// TokenStyle is a form of continuation tokens.
type TokenStyle int

// The token styles.
const (
	// StorageTokens name the next entity's keys (F-CONTINUATION-TOKEN).
	StorageTokens TokenStyle = iota
	// CosmosTokens are an opaque JSON document in NextPartitionKey and
	// "NA" in NextRowKey (F-COSMOS-TOKENS).
	CosmosTokens
)

// Azure is Azure Table Storage: tableplay's behaviour with no difference.
func Azure() Profile {
	return Profile{Name: "azure", Title: "Azure Table Storage"}
}

// Default is the profile a host uses when none is named.
func Default() Profile { return Azure() }

// IsAzure reports whether p is the azure profile, whose differences are none.
func (p Profile) IsAzure() bool {
	a := Azure()
	return p.Name == a.Name
}

// all returns the profiles a name can choose, in the order they are shown.
func all() []Profile {
	return []Profile{Azure(), Cosmos(), Azurite337()}
}

// ByName returns the profile called name.
func ByName(name string) (Profile, bool) {
	for _, p := range all() {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// Names returns the names of the profiles ByName knows, default first.
func Names() []string {
	ps := all()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}
