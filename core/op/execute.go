package op

import (
	"strings"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Result is what an executed operation produced.
type Result struct {
	// Table is the stored name of a created or read table.
	Table string
	// Entity is the stored entity of a write (nil for Delete) or a Get.
	Entity *entity.Entity
	// Page is a Query's page; Tables a ListTables page.
	Page store.Page
	// Tables is a ListTables page.
	Tables store.TablePage
	// Select is the parsed $select of a Query or Get (nil selects all).
	Select []string
	// Batch holds, per operation of a Batch, the stored entity.
	Batch []*entity.Entity
	// ACL is GetACL's answer.
	ACL []store.SignedIdentifier
}

// Failure is a failed operation: its error and, for a Batch, the 0-based
// index of the operation that failed.
type Failure struct {
	// Index is the 0-based position of the failed operation in a Batch;
	// 0 for a single operation.
	Index int
	// Err is the service's error to answer with.
	Err *tableerr.Error
}

// fail wraps an error of a single operation.
func fail(err *tableerr.Error) *Failure { return &Failure{Err: err} }

// Within, when set, hides the entities a query must not see (a shared
// access signature's key range).
type Within func(*entity.Entity) bool

// Execute runs an operation against the store. The account-level XML
// operations (GetProperties, SetProperties, GetStats) are answered where
// their XML is (the REST layer), not here.
func Execute(s *store.Store, o Operation, within Within) (Result, *Failure) {
	var r Result
	switch o.Kind {
	case CreateTable:
		name, err := s.CreateTable(o.Table)
		if err != nil {
			return r, fail(err)
		}
		r.Table = name
	case DeleteTable:
		if err := s.DeleteTable(o.Table); err != nil {
			return r, fail(err)
		}
	case GetTable:
		name, err := s.GetTable(o.Table)
		if err != nil {
			return r, fail(err)
		}
		r.Table = name
	case ListTables:
		f, top, err := filterAndTop(o.Query)
		if err != nil {
			return r, fail(err)
		}
		page, err := s.ListTables(store.TableQuery{Filter: f, Top: top, NextTableName: o.Query.NextTableName})
		if err != nil {
			return r, fail(err)
		}
		r.Tables = page
	case Query:
		f, top, err := filterAndTop(o.Query)
		if err != nil {
			return r, fail(err)
		}
		if r.Select, err = selectOf(o.Query); err != nil {
			return r, fail(err)
		}
		q := store.Query{Filter: f, Top: top, NextPartitionKey: o.Query.NextPartitionKey, NextRowKey: o.Query.NextRowKey, Within: within}
		page, err := s.Query(o.Table, q)
		if err != nil {
			return r, fail(err)
		}
		r.Page = page
	case Get:
		var err *tableerr.Error
		if r.Select, err = selectOf(o.Query); err != nil {
			return r, fail(err)
		}
		e, err := s.Get(o.Table, o.PartitionKey, o.RowKey)
		if err != nil {
			return r, fail(err)
		}
		r.Entity = e
	case Insert, Replace, Merge, InsertOrReplace, InsertOrMerge, Delete:
		sop, _ := o.StoreOp()
		e, err := s.Apply(o.Table, sop)
		if err != nil {
			return r, fail(err)
		}
		r.Entity = e
	case Batch:
		return executeBatch(s, o)
	case GetACL:
		acl, err := s.ACL(o.Table)
		if err != nil {
			return r, fail(err)
		}
		r.ACL = acl
	case SetACL:
		if err := s.SetACL(o.Table, o.ACL); err != nil {
			return r, fail(err)
		}
	default:
		return r, fail(tableerr.New(tableerr.MethodNotAllowed))
	}
	return r, nil
}

// executeBatch runs a changeset as one transaction, or a batch's single Get.
func executeBatch(s *store.Store, o Operation) (Result, *Failure) {
	var r Result
	if len(o.Operations) == 1 && o.Operations[0].Kind == Get {
		g := o.Operations[0]
		e, err := s.Get(g.Table, g.PartitionKey, g.RowKey)
		if err != nil {
			return r, fail(err)
		}
		r.Batch = []*entity.Entity{e}
		return r, nil
	}
	if i, err := CheckBatch(o.Operations); err != nil {
		return r, &Failure{Index: i, Err: err}
	}
	if len(o.Operations) == 0 {
		return r, nil
	}
	ops := make([]store.Op, len(o.Operations))
	for i, p := range o.Operations {
		ops[i], _ = p.StoreOp()
	}
	stored, txErr := s.Transact(o.Operations[0].Table, ops)
	if txErr != nil {
		return r, &Failure{Index: txErr.Index, Err: txErr.Err}
	}
	r.Batch = stored
	return r, nil
}

// CheckBatch applies the rules of a changeset that need no table: every
// part a write, all on one table, then the store's rules (one
// PartitionKey, each entity once, at most 100), naming the first offending
// operation.
func CheckBatch(parts []Operation) (int, *tableerr.Error) {
	ops := make([]store.Op, 0, len(parts))
	for i, p := range parts {
		sop, ok := p.StoreOp()
		if !ok {
			return i, tableerr.New(tableerr.InvalidInput) // queries and table operations have no place in a changeset
		}
		if i > 0 && !strings.EqualFold(p.Table, parts[0].Table) {
			if j, err := store.CheckBatch(ops); err != nil {
				return j, err
			}
			return i, tableerr.New(tableerr.CommandsInBatchActOnDifferentPartitions)
		}
		ops = append(ops, sop)
	}
	return store.CheckBatch(ops)
}

// filterAndTop parses $filter and $top. An empty $filter, as Storage
// Explorer sends it, is no filter (F-FILTER-EMPTY); $top=0 is an empty page
// (F-TOP-ZERO).
func filterAndTop(q Options) (filter.Node, int, *tableerr.Error) {
	var n filter.Node
	top := 0
	if q.Filter != nil && *q.Filter != "" {
		var err *tableerr.Error
		if n, err = filter.Parse(*q.Filter); err != nil {
			return nil, 0, err
		}
	}
	if q.Top != 0 {
		if q.Top != store.NoEntities && (q.Top < 1 || q.Top > filter.MaxTop) {
			return nil, 0, tableerr.New(tableerr.InvalidInput)
		}
		top = q.Top
	}
	return n, top, nil
}

// selectOf parses $select (nil selects every property).
func selectOf(q Options) ([]string, *tableerr.Error) {
	if q.Select == nil {
		return nil, nil
	}
	return filter.ParseSelect(*q.Select)
}
