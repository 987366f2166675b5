// Package store is the account: tables, and in each table the entities
// ordered by (PartitionKey, RowKey) by UTF-16 code unit in a B-tree whose
// copies share nodes until one is written. It implements the write operations with their If-Match rules,
// Timestamps and ETags from an injected clock, paged queries with the
// service's continuation tokens, atomic batch transactions, and a versioned
// JSON snapshot of the whole account. With a Journal, every change is also
// recorded (one record per change, a transaction whole) and made durable
// before the call returns; Redo replays those records.
//
// An entity is kept packed (row.go); its values are in the store's one
// value encoding (value.go), which the snapshot blocks and the change
// records hold them in too.
//
// Concurrency and transactions: writes to a table are serialized by the
// table's writer lock, and a write or a transaction changes the writer's
// own tree in place, keeping an undo list (two pointers a step); an
// operation that fails takes the steps before it back, so the tree holds
// what it held. Readers never see that tree: view gives each an immutable
// snapshot (a copy sharing every node, taken once per change under the
// lock, after a transaction ends), so a query never sees half a
// transaction. Writing in place costs no node copies while no reader holds
// a snapshot, which is most batches (BenchmarkTransactInsert100 halved its
// allocations against writing on a copy); a node a snapshot shares is
// copied on its first write after the snapshot. Entities handed to the
// store become its property and entities it returns must not be modified.
package store
