package op

import "github.com/tableplay/tableplay/core/store"

// Kind is what an operation does.
type Kind uint8

// The operations of the Table service.
const (
	CreateTable Kind = iota + 1
	DeleteTable
	GetTable
	ListTables
	Insert
	Get
	Replace
	Merge
	InsertOrReplace
	InsertOrMerge
	Delete
	Query
	Batch
	GetACL
	SetACL
	GetProperties
	SetProperties
	GetStats
)

// kinds lists every Kind, for ParseKind and tests.
func kinds() []Kind {
	return []Kind{CreateTable, DeleteTable, GetTable, ListTables, Insert, Get, Replace, Merge,
		InsertOrReplace, InsertOrMerge, Delete, Query, Batch, GetACL, SetACL, GetProperties, SetProperties, GetStats}
}

// String is the operation's name in the playground's JSON (window.tableplay
// operations use these names).
func (k Kind) String() string {
	switch k {
	case CreateTable:
		return "createTable"
	case DeleteTable:
		return "deleteTable"
	case GetTable:
		return "getTable"
	case ListTables:
		return "listTables"
	case Insert:
		return "insert"
	case Get:
		return "get"
	case Replace:
		return "replace"
	case Merge:
		return "merge"
	case InsertOrReplace:
		return "insertOrReplace"
	case InsertOrMerge:
		return "insertOrMerge"
	case Delete:
		return "delete"
	case Query:
		return "query"
	case Batch:
		return "batch"
	case GetACL:
		return "getAcl"
	case SetACL:
		return "setAcl"
	case GetProperties:
		return "getProperties"
	case SetProperties:
		return "setProperties"
	case GetStats:
		return "getStats"
	}
	return "unknown"
}

// ParseKind reads a name String gives.
func ParseKind(s string) (Kind, bool) {
	for _, k := range kinds() {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// Write reports the store write an entity operation is, if it is one.
func (k Kind) Write() (store.Kind, bool) {
	switch k {
	case Insert:
		return store.Insert, true
	case Replace:
		return store.Replace, true
	case Merge:
		return store.Merge, true
	case InsertOrReplace:
		return store.InsertOrReplace, true
	case InsertOrMerge:
		return store.InsertOrMerge, true
	case Delete:
		return store.Delete, true
	}
	return 0, false
}

// Addressed reports whether the operation names one entity by its keys in
// the URL (get, the updates, the upserts and delete; not insert, whose keys
// are in its body).
func (k Kind) Addressed() bool {
	switch k {
	case Get, Replace, Merge, InsertOrReplace, InsertOrMerge, Delete:
		return true
	}
	return false
}

// Changes reports whether the operation changes the account.
func (k Kind) Changes() bool {
	switch k {
	case CreateTable, DeleteTable, SetACL, SetProperties, Batch:
		return true
	}
	_, w := k.Write()
	return w
}

// InBatch reports whether the operation may be a part of a $batch: the six
// writes in a changeset, or a single Get.
func (k Kind) InBatch() bool {
	_, w := k.Write()
	return w || k == Get
}
