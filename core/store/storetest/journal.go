// Package storetest holds what the tests of the store and of its users
// share: an in-memory journal that keeps every change record, and the
// entity that make scale loads and the heap benchmarks measure.
package storetest

import (
	"bytes"
	"sync"
)

// Journal keeps the change records handed to it (store.Journal), in order;
// Wait fails with the error given to Fail once it is set. The zero value
// is ready to use.
type Journal struct {
	mu   sync.Mutex
	recs [][]byte
	fail error
}

// Record keeps a copy of the change and returns its sequence number.
func (j *Journal) Record(change []byte) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.recs = append(j.recs, bytes.Clone(change))
	return uint64(len(j.recs))
}

// Wait returns the error set by Fail (nil: the change is durable).
func (j *Journal) Wait(uint64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.fail
}

// Fail makes every later Wait return err, as a log that cannot write.
func (j *Journal) Fail(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.fail = err
}

// Records returns the records kept so far, oldest first.
func (j *Journal) Records() [][]byte {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([][]byte(nil), j.recs...)
}
