package store

import (
	"strconv"
	"testing"
)

// sizeJournal counts what it is handed and keeps the last records, as a
// log's memory costs nothing to measure against.
type sizeJournal struct {
	bytes int
	recs  [][]byte
	keep  bool
}

func (j *sizeJournal) Record(c []byte) uint64 {
	j.bytes += len(c)
	if j.keep {
		j.recs = append(j.recs, append([]byte(nil), c...))
	}
	return 1
}

func (j *sizeJournal) Wait(uint64) error { return nil }

// BenchmarkJournaledTransact100 is BenchmarkTransactInsert100 with a
// journal: the store's share of a $batch of inserts on a data directory,
// the change record's encoding included. It reports the record's bytes.
func BenchmarkJournaledTransact100(b *testing.B) {
	j := &sizeJournal{}
	n := 0
	benchTransactInsert100(b, func() *Store {
		n++
		return New(Options{Clock: stalled(), Journal: j})
	})
	// Each fresh store records its table's creation, and then the batches.
	b.ReportMetric(float64(j.bytes)/float64(b.N+n), "record-B")
}

// BenchmarkRedoTransact100 replays the change record of a batch of 100
// inserts into a fresh partition: a start's share of one batch in the log.
func BenchmarkRedoTransact100(b *testing.B) {
	const perTable = 200
	j := &sizeJournal{keep: true}
	src := New(Options{Clock: stalled(), Journal: j})
	src.CreateTable("bench")
	for k := 0; k < perTable; k++ {
		ops := make([]Op, 100)
		for m := range ops {
			ops[m] = Op{Kind: Insert, Entity: typical("tx-"+strconv.Itoa(k), rk(m), m)}
		}
		if _, err := src.Transact("bench", ops); err != nil {
			b.Fatal(err.Err)
		}
	}
	recs := j.recs[1:] // the table's creation first
	var s *Store
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%perTable == 0 {
			b.StopTimer()
			s = New(Options{Clock: stalled()})
			if err := s.Redo(j.recs[0]); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := s.Redo(recs[i%perTable]); err != nil {
			b.Fatal(err)
		}
	}
}
