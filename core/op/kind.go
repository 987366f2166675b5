package op

import "github.com/tableplay/tableplay/core/store"

// Kind is what an operation does; its row in specs (Spec) says everything
// the layers treat differently.
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

// String is the operation's name in the playground's JSON (window.tableplay
// operations use these names).
func (k Kind) String() string {
	if n := k.row().Name; n != "" {
		return n
	}
	return "unknown"
}

// ParseKind reads a name String gives.
func ParseKind(s string) (Kind, bool) {
	for k := Kind(1); int(k) < len(specs); k++ {
		if specs[k].Name == s {
			return k, true
		}
	}
	return 0, false
}

// Write reports the store write an entity operation is, if it is one.
func (k Kind) Write() (store.Kind, bool) {
	s := k.row()
	return s.Store, s.Writes
}

// Addressed reports whether the operation names one entity by its keys in
// the URL (get, the updates, the upserts and delete; not insert, whose keys
// are in its body).
func (k Kind) Addressed() bool { return k.row().Addressed }

// Changes reports whether the operation changes the account.
func (k Kind) Changes() bool { return k.row().Changes }

// InBatch reports whether the operation may be a part of a $batch: the six
// writes in a changeset, or a single Get.
func (k Kind) InBatch() bool { return k.row().InBatch }
