package store

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// MaxBatch is the most operations one transaction may hold.
const MaxBatch = 100

// TxError is a failed transaction: the 0-based index of the operation that
// failed and its own error. (The REST layer adds the "<index>:" prefix.)
type TxError struct {
	// Index is the 0-based position of the operation that failed.
	Index int
	// Err is that operation's own error.
	Err *tableerr.Error
}

// Transact applies the operations to one table as one atomic transaction
// (an entity group transaction): at most 100 operations, all on the same
// PartitionKey, each entity at most once (F-BATCH-FAILURE). The operations run in order,
// each seeing the effects of those before; if one fails, those are taken
// back and the table holds exactly what it held before (readers, working on
// snapshots, never see a transaction in part). All entities written
// share one Timestamp. It returns, per operation, the stored entity (nil for
// a delete).
func (s *Store) Transact(tableName string, ops []Op) ([]*entity.Entity, *TxError) {
	if i, err := CheckBatch(ops); err != nil {
		return nil, &TxError{Index: i, Err: err}
	}
	t, err := s.tableFor(tableName)
	if err != nil {
		return nil, &TxError{Index: 0, Err: err}
	}
	if len(ops) == 0 {
		return nil, nil
	}
	return s.commit(t, ops, true, make([]*entity.Entity, len(ops)))
}

// CheckBatch applies the batch-level rules (F-BATCH-FAILURE) in operation order and names the
// first offending operation.
func CheckBatch(ops []Op) (int, *tableerr.Error) {
	if inKeyOrder(ops) {
		return 0, nil
	}
	return checkBatchInTurn(ops)
}

// inKeyOrder reports whether ops, at most MaxBatch, share one PartitionKey
// and come in strictly increasing RowKey order (by bytes): no entity twice
// then, and no rule broken. Clients mostly send a batch so; it costs a
// comparison an operation rather than a set of the keys.
func inKeyOrder(ops []Op) bool {
	if len(ops) > MaxBatch {
		return false
	}
	for i := 1; i < len(ops); i++ {
		e, before := ops[i].Entity, ops[i-1].Entity
		if e.PartitionKey != ops[0].Entity.PartitionKey || e.RowKey <= before.RowKey {
			return false
		}
	}
	return true
}

// checkBatchInTurn is CheckBatch operation by operation, for any batch.
func checkBatchInTurn(ops []Op) (int, *tableerr.Error) {
	// Every operation before a duplicate shares the first PartitionKey (a
	// different one fails first), so RowKeys alone name the entities.
	seen := make(map[string]bool, min(len(ops), MaxBatch))
	for i, op := range ops {
		if i >= MaxBatch {
			return i, tableerr.WithMessage(tableerr.InvalidInput, "The batch request operation exceeds the maximum 100 changes per change set.")
		}
		e := op.Entity
		if e.PartitionKey != ops[0].Entity.PartitionKey {
			return i, tableerr.New(tableerr.CommandsInBatchActOnDifferentPartitions)
		}
		if seen[e.RowKey] {
			return i, tableerr.New(tableerr.InvalidDuplicateRow)
		}
		seen[e.RowKey] = true
	}
	return 0, nil
}
