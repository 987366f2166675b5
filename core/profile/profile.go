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
	// Order is the order of query results within a page and across pages.
	Order Order
	// MaxKeyBytes, when set, bounds PartitionKey and RowKey by their UTF-8
	// bytes instead of Azure's 512 UTF-16 code units (F-COSMOS-KEY-SIZE).
	MaxKeyBytes int
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
	// ETags is the shape of entity and table ETags.
	ETags ETagStyle
	// TimestampDigits, when set, is the number of fractional-second digits
	// a Timestamp keeps (Azure keeps 7).
	TimestampDigits int
	// Reserved lists property names, besides the system ones, that an
	// entity may not use here (F-COSMOS-RESERVED-NAMES).
	Reserved []string

	// The fields below are the azurite-3.37 profile's (see azurite.go):
	// they are left to that profile and read where Azurite decides.

	// Emulator is how an emulator's headers and body forms differ.
	Emulator Emulator
}

// Order is an order of query results.
type Order int

// The orders of query results.
const (
	// KeyOrder sorts by PartitionKey, then RowKey (F-ORDER).
	KeyOrder Order = iota
	// CreationOrder returns entities in the order they were first
	// inserted, whatever their keys (F-COSMOS-ORDER).
	CreationOrder
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

// ETagStyle is a shape of ETags.
type ETagStyle int

// The ETag styles.
const (
	// TimestampETags are W/"datetime'…'" built from the Timestamp (F-ETAG).
	TimestampETags ETagStyle = iota
	// CosmosETags are the shape the Cosmos endpoint writes (F-COSMOS-ETAG).
	CosmosETags
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
	return []Profile{Azure(), Cosmos()}
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
