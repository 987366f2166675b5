package op

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

// Operation is one typed operation. Which fields count depends on Kind:
//
//   - table operations: Table (CreateTable, DeleteTable, GetTable); ListTables
//     uses Query (Filter, Top, NextTableName);
//   - Insert: Table and Entity (its keys are the entity's);
//   - Get, Delete: Table, PartitionKey, RowKey; Delete also IfMatch;
//   - Replace, Merge: Table, keys, Entity and IfMatch (MatchAny for "*");
//     InsertOrReplace, InsertOrMerge: the same without IfMatch;
//   - Query: Table and Query;
//   - Batch: Table (of the first part) and Operations, all writes of one
//     changeset, or a single Get;
//   - GetACL, SetACL: Table; SetACL also ACL;
//   - GetProperties, SetProperties, GetStats: the account; SetProperties
//     carries the XML document in Body, merged into the current properties
//     where it is executed.
type Operation struct {
	// Kind is what the operation does.
	Kind Kind
	// Table is the table the operation acts on.
	Table string
	// PartitionKey and RowKey name the entity an operation addresses by URL
	// (all but Insert, whose keys are the entity's).
	PartitionKey, RowKey string
	// Entity is the entity a write sends, keys included.
	Entity *entity.Entity
	// IfMatch is the If-Match condition of a Replace, Merge or Delete.
	IfMatch store.Match
	// Query holds the query options of a Query or ListTables.
	Query Options
	// Operations are a Batch's parts, in the order sent.
	Operations []Operation
	// ACL is the access policy list SetACL stores.
	ACL []store.SignedIdentifier
	// Body is SetProperties' XML document.
	Body []byte
}

// Options holds a query's options, as the request carried them.
type Options struct {
	// Filter and Select are nil when the request had no $filter or
	// $select (present but empty differs from absent on the wire).
	Filter, Select *string
	// Top is $top, 0 when absent; store.NoEntities for $top=0 (a page
	// without entities that still carries a continuation); any other value
	// outside 1–1000 is refused.
	Top int
	// Continuation tokens from a previous page.
	NextPartitionKey, NextRowKey, NextTableName string
}

// Keys returns the keys of the entity an operation touches: the URL's for an
// addressed operation, the body's for an insert; ok is false for operations
// that touch no single entity.
func (o Operation) Keys() (pk, rk string, ok bool) {
	switch {
	case o.Kind.Addressed():
		return o.PartitionKey, o.RowKey, true
	case o.Kind == Insert && o.Entity != nil:
		return o.Entity.PartitionKey, o.Entity.RowKey, true
	}
	return "", "", false
}

// StoreOp is the store write of an entity operation (ok false for others).
// Delete carries only the keys.
func (o Operation) StoreOp() (store.Op, bool) {
	k, ok := o.Kind.Write()
	if !ok {
		return store.Op{}, false
	}
	e := o.Entity
	if o.Kind == Delete || e == nil {
		e = &entity.Entity{PartitionKey: o.PartitionKey, RowKey: o.RowKey}
	}
	return store.Op{Kind: k, Entity: e, IfMatch: o.IfMatch}, true
}
