package op

import "github.com/tableplay/tableplay/core/store"

// Spec is what one Kind is, in plain data: every layer that treats
// operations differently (routing, authorization, decoding, the answer, the
// playground's requests, generated code) reads its Kind's row in specs
// instead of naming kinds. A layer interprets a field; a shape it has no
// code for is a test failure there, not a silent default.
type Spec struct {
	// Name is the operation's name in the playground's JSON.
	Name string
	// Resource and Method route a request to the kind: the first row with
	// both wins (an update, whose Upsert shares them).
	Resource Resource
	Method   Method
	// Upsert is the kind this one becomes when the request has no
	// If-Match (Replace and Merge become their upserts).
	Upsert Kind
	// Condition says how the operation reads If-Match.
	Condition Condition
	// Params are the query options the operation reads.
	Params Params
	// Body is the request body it decodes.
	Body Body
	// Answer is the shape of its successful answer.
	Answer Answer
	// XML says it answers in XML, its errors included.
	XML bool
	// Prefer says it honours Prefer and echoes Preference-Applied (F-PREFER).
	Prefer bool
	// Permission is what a shared access signature must grant.
	Permission Permission
	// Store is the store write it is when Writes is set.
	Store  store.Kind
	Writes bool
	// Addressed says it names one entity by its keys in the URL.
	Addressed bool
	// InBatch says it may be a part of a $batch.
	InBatch bool
	// Changes says it changes the account.
	Changes bool
}

// Resource is the shape of URL an operation is sent to.
type Resource uint8

// The resources of the Table service.
const (
	NoResource        Resource = iota
	ServiceProperties          // the account root, ?restype=service&comp=properties
	ServiceStats               // the account root, ?restype=service&comp=stats
	TableList                  // Tables
	OneTable                   // Tables('name')
	BatchResource              // $batch
	Entities                   // t or t(): a table's entities
	OneEntity                  // t(PartitionKey='…',RowKey='…')
	TableACL                   // t?comp=acl
	resourceCount
)

// Method is an HTTP verb as the service reads it (after X-HTTP-Method and
// PATCH-as-MERGE).
type Method uint8

// The verbs operations are sent with.
const (
	NoMethod Method = iota
	MethodGet
	MethodPost
	MethodPut
	MethodDelete
	MethodMerge
	methodCount
)

// String is the verb's text.
func (m Method) String() string {
	switch m {
	case MethodGet:
		return "GET"
	case MethodPost:
		return "POST"
	case MethodPut:
		return "PUT"
	case MethodDelete:
		return "DELETE"
	case MethodMerge:
		return "MERGE"
	}
	return ""
}

// ParseMethod reads a verb (NoMethod for one no operation is sent with).
func ParseMethod(s string) Method {
	switch s {
	case "GET":
		return MethodGet
	case "POST":
		return MethodPost
	case "PUT":
		return MethodPut
	case "DELETE":
		return MethodDelete
	case "MERGE":
		return MethodMerge
	}
	return NoMethod
}

// Condition is how an operation reads If-Match.
type Condition uint8

// The conditions.
const (
	// Unconditional operations do not read If-Match.
	Unconditional Condition = iota
	// Conditional operations read it and the SDKs send it ("*" or an
	// ETag). One without an Upsert must carry it in a $batch part.
	Conditional
	// Upserting operations are what a Conditional one becomes without it.
	Upserting
)

// Params are the query options an operation reads.
type Params uint8

// The query options.
const (
	NoParams     Params = iota
	QueryParams         // $filter, $select, $top and the continuation
	SelectParams        // $select alone
)

// Body is the request body an operation decodes.
type Body uint8

// The bodies.
const (
	NoBody         Body = iota
	TableNameBody       // {"TableName": …}
	EntityBody          // an entity, keys included (they are judged again once read)
	UpdateBody          // an entity whose keys are the URL's
	BatchBody           // a multipart $batch envelope
	ACLBody             // the SignedIdentifiers XML document
	PropertiesBody      // the StorageServiceProperties XML document, kept as sent
)

// Answer is the shape of an operation's successful answer.
type Answer uint8

// The answers.
const (
	// NoAnswer is the zero row's: no such operation.
	NoAnswer Answer = iota
	// NoContent is 204 without a body.
	NoContent
	// TableCreated is 201 with the table (204 by Prefer), and Location.
	TableCreated
	// TableRead is 200 with the table.
	TableRead
	// TablePage is 200 with a page of tables.
	TablePage
	// EntityPage is 200 with a page of entities.
	EntityPage
	// EntityRead is 200 with the entity and its ETag.
	EntityRead
	// EntityCreated is 201 with the entity (204 by Prefer), its ETag and
	// Location.
	EntityCreated
	// EntityWritten is 204 with the ETag (200 with the entity by Prefer).
	EntityWritten
	// BatchAnswer is the multipart answer of a $batch.
	BatchAnswer
	// ACLDocument is 200 with the table's SignedIdentifiers.
	ACLDocument
	// PropertiesDocument is 200 with the service properties.
	PropertiesDocument
	// PropertiesSet is 202 without a body.
	PropertiesSet
	// StatsDocument is 200 with the replication statistics.
	StatsDocument
)

// Permission is what a shared access signature must grant for an
// operation. The zero value grants nothing but to the account key.
type Permission struct {
	// ByParts says a $batch is judged part by part, not as a whole.
	ByParts bool
	// ResourceType is the account SAS resource type it needs (s service,
	// c tables, o entities); 0 when only the account key may.
	ResourceType byte
	// Account are the account SAS permission letters: all of them, or
	// any one when AnyOf.
	Account string
	AnyOf   bool
	// Service are the letters a service SAS (entities of one table) must
	// grant, all of them; "" when a service SAS never may.
	Service string
	// Policy says it changes who may do what (CORS rules, ACLs), which
	// only a signed request may.
	Policy bool
}

// specs is the table: one row per Kind, the zero row for no operation.
var specs = [...]Spec{
	CreateTable: {Name: "createTable", Resource: TableList, Method: MethodPost, Body: TableNameBody,
		Answer: TableCreated, Prefer: true, Changes: true,
		Permission: Permission{ResourceType: 'c', Account: "acw", AnyOf: true}},
	DeleteTable: {Name: "deleteTable", Resource: OneTable, Method: MethodDelete, Answer: NoContent, Changes: true,
		Permission: Permission{ResourceType: 'c', Account: "d"}},
	GetTable: {Name: "getTable", Resource: OneTable, Method: MethodGet, Answer: TableRead,
		Permission: Permission{ResourceType: 'c', Account: "l"}},
	ListTables: {Name: "listTables", Resource: TableList, Method: MethodGet, Params: QueryParams, Answer: TablePage,
		Permission: Permission{ResourceType: 'c', Account: "l"}},
	Insert: {Name: "insert", Resource: Entities, Method: MethodPost, Body: EntityBody, Answer: EntityCreated,
		Prefer: true, Store: store.Insert, Writes: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "a", Service: "a"}},
	Get: {Name: "get", Resource: OneEntity, Method: MethodGet, Params: SelectParams, Answer: EntityRead,
		Addressed: true, InBatch: true,
		Permission: Permission{ResourceType: 'o', Account: "r", Service: "r"}},
	Replace: {Name: "replace", Resource: OneEntity, Method: MethodPut, Upsert: InsertOrReplace, Condition: Conditional,
		Body: UpdateBody, Answer: EntityWritten, Prefer: true, Store: store.Replace, Writes: true,
		Addressed: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "u", Service: "u"}},
	Merge: {Name: "merge", Resource: OneEntity, Method: MethodMerge, Upsert: InsertOrMerge, Condition: Conditional,
		Body: UpdateBody, Answer: EntityWritten, Prefer: true, Store: store.Merge, Writes: true,
		Addressed: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "u", Service: "u"}},
	InsertOrReplace: {Name: "insertOrReplace", Resource: OneEntity, Method: MethodPut, Condition: Upserting,
		Body: UpdateBody, Answer: EntityWritten, Prefer: true, Store: store.InsertOrReplace, Writes: true,
		Addressed: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "au", Service: "au"}},
	InsertOrMerge: {Name: "insertOrMerge", Resource: OneEntity, Method: MethodMerge, Condition: Upserting,
		Body: UpdateBody, Answer: EntityWritten, Prefer: true, Store: store.InsertOrMerge, Writes: true,
		Addressed: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "au", Service: "au"}},
	Delete: {Name: "delete", Resource: OneEntity, Method: MethodDelete, Condition: Conditional, Answer: NoContent,
		Store: store.Delete, Writes: true, Addressed: true, InBatch: true, Changes: true,
		Permission: Permission{ResourceType: 'o', Account: "d", Service: "d"}},
	Query: {Name: "query", Resource: Entities, Method: MethodGet, Params: QueryParams, Answer: EntityPage,
		Permission: Permission{ResourceType: 'o', Account: "r", Service: "r"}},
	Batch: {Name: "batch", Resource: BatchResource, Method: MethodPost, Body: BatchBody, Answer: BatchAnswer,
		Changes: true, Permission: Permission{ByParts: true}},
	GetACL: {Name: "getAcl", Resource: TableACL, Method: MethodGet, Answer: ACLDocument, XML: true},
	SetACL: {Name: "setAcl", Resource: TableACL, Method: MethodPut, Body: ACLBody, Answer: NoContent, XML: true,
		Changes: true, Permission: Permission{Policy: true}},
	GetProperties: {Name: "getProperties", Resource: ServiceProperties, Method: MethodGet, Answer: PropertiesDocument,
		XML: true, Permission: Permission{ResourceType: 's', Account: "r"}},
	SetProperties: {Name: "setProperties", Resource: ServiceProperties, Method: MethodPut, Body: PropertiesBody,
		Answer: PropertiesSet, XML: true, Changes: true,
		Permission: Permission{ResourceType: 's', Account: "w", Policy: true}},
	GetStats: {Name: "getStats", Resource: ServiceStats, Method: MethodGet, Answer: StatsDocument, XML: true,
		Permission: Permission{ResourceType: 's', Account: "r"}},
}

// Spec is k's row (the zero row, which no layer accepts, for a Kind
// without one): a copy, for a layer that reads several of its fields once.
// The accessors below read one field without copying the row, for the
// paths every request takes.
func (k Kind) Spec() Spec { return *k.row() }

// row is k's row in place; nothing writes through it.
func (k Kind) row() *Spec {
	if int(k) >= len(specs) {
		return &specs[0]
	}
	return &specs[k]
}

// Upsert is the kind k becomes without If-Match (0 when it stays itself).
func (k Kind) Upsert() Kind { return k.row().Upsert }

// Condition is how k reads If-Match.
func (k Kind) Condition() Condition { return k.row().Condition }

// Params are the query options k reads.
func (k Kind) Params() Params { return k.row().Params }

// Body is the request body k decodes.
func (k Kind) Body() Body { return k.row().Body }

// Answer is the shape of k's successful answer.
func (k Kind) Answer() Answer { return k.row().Answer }

// XML reports whether k answers in XML, its errors included.
func (k Kind) XML() bool { return k.row().XML }

// Prefer reports whether k honours Prefer (F-PREFER).
func (k Kind) Prefer() bool { return k.row().Prefer }

// Permission is what a shared access signature must grant for k.
func (k Kind) Permission() Permission { return k.row().Permission }

// Kinds lists every Kind that has a row, in order.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(specs)-1)
	for k := 1; k < len(specs); k++ {
		ks = append(ks, Kind(k))
	}
	return ks
}

// routes is the table read the other way: the kind a verb asks of a
// resource, built once from specs.
var routes = routeTable(specs[:])

// routeTable indexes rows by resource and verb; the first row with both
// wins (an update over the upsert it becomes without If-Match).
func routeTable(rows []Spec) (t [resourceCount][methodCount]Kind) {
	for k := len(rows) - 1; k > 0; k-- {
		if s := &rows[k]; s.Resource != NoResource && s.Method != NoMethod {
			t[s.Resource][s.Method] = Kind(k)
		}
	}
	return t
}

// Route names the operation a verb asks of a resource (0 when the resource
// does not answer that verb). An update is routed as such; the caller makes
// it its Upsert when If-Match is absent.
func Route(r Resource, m Method) Kind {
	if r >= resourceCount || m >= methodCount {
		return 0
	}
	return routes[r][m]
}
