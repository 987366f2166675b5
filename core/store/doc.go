// Package store is the account: tables, and in each table the entities
// ordered by (PartitionKey, RowKey) by UTF-16 code unit in a copy-on-write
// B-tree. It implements the write operations with their If-Match rules,
// Timestamps and ETags from an injected clock, paged queries with the
// service's continuation tokens, atomic batch transactions, and a versioned
// JSON snapshot of the whole account. With a Journal, every change is also
// recorded (one record per change, a transaction whole) and made durable
// before the call returns; Redo replays those records.
//
// Concurrency: writes to a table are serialized by the table's writer lock;
// readers work on an immutable copy-on-write snapshot of the tree, so a
// query never sees half a transaction. Entities handed to the store become
// its property and entities it returns must not be modified.
package store
