package store

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// The benchmark fixture: 1,000,000 typical entities (1,000 partitions of
// 1,000 rows, 10 properties each), built once per test binary and only when a
// benchmark asks for it.
var (
	fixtureOnce  sync.Once
	fixture      *Store
	fixtureBytes float64 // heap bytes per entity
	inserted     int     // keys used by BenchmarkInsert so far (it runs several times)
)

const (
	fixturePartitions = 1000
	fixtureRows       = 1000
)

func pkey(i int) string { return "p" + strconv.Itoa(10000+i) }

func typical(pk, rk string, i int) *entity.Entity {
	return ent(pk, rk,
		str("Name", "Customer "+rk),
		str("Email", "customer"+rk+"@example.com"),
		i32("Age", 20+i%60),
		prop("Balance", edm.DoubleValue(float64(i)*1.25)),
		prop("Active", edm.BoolValue(i%2 == 0)),
		prop("Joined", edm.DateTimeValue(edm.MinTicks+edm.Ticks(i)*10_000_000)),
		prop("Visits", edm.Int64Value(int64(i)*1000)),
		prop("Id", edm.GuidValue([16]byte{byte(i), byte(i >> 8), byte(i >> 16), 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})),
		prop("Avatar", edm.BinaryValue([]byte{1, 2, 3, 4, 5, 6, 7, 8})),
		str("Notes", "regular"),
	)
}

func benchStore(b *testing.B) *Store {
	b.Helper()
	fixtureOnce.Do(func() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := New(Options{Clock: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }})
		s.CreateTable("bench")
		ops := make([]Op, 0, 100)
		for p := 0; p < fixturePartitions; p++ {
			for r := 0; r < fixtureRows; r += 100 {
				ops = ops[:0]
				for j := r; j < r+100; j++ {
					ops = append(ops, Op{Kind: Insert, Entity: typical(pkey(p), rk(j), p*fixtureRows+j)})
				}
				if _, err := s.Transact("bench", ops); err != nil {
					panic(err.Err)
				}
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		fixture = s
		fixtureBytes = float64(after.HeapAlloc-before.HeapAlloc) / (fixturePartitions * fixtureRows)
	})
	return fixture
}

func BenchmarkInsert(b *testing.B) {
	s := benchStore(b)
	es := make([]*entity.Entity, b.N)
	for i := range es {
		n := inserted + i
		es[i] = typical("insert-"+strconv.Itoa(n/1000), rk(n%1000), n)
	}
	inserted += b.N
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Apply("bench", Op{Kind: Insert, Entity: es[i]}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(fixtureBytes, "fixture-heap-B/entity")
}

// BenchmarkGet reads keys spread over the whole table: on 1,000,000 entities
// each lookup misses the CPU caches (see BenchmarkGetRepeated for the warm
// cost). The keys are made beforehand, so only the lookup is timed.
func BenchmarkGet(b *testing.B) {
	s := benchStore(b)
	const n = 1 << 16 // touches far more leaves than the caches hold
	pks, rks := make([]string, n), make([]string, n)
	for i := range pks {
		j := i * 7919 % (fixturePartitions * fixtureRows)
		pks[i], rks[i] = pkey(j/fixtureRows), rk(j%fixtureRows)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Get("bench", pks[i%n], rks[i%n]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetRepeated reads one key again and again: the lookup's cost
// without cache misses.
func BenchmarkGetRepeated(b *testing.B) {
	s := benchStore(b)
	pk, r := pkey(500), rk(500)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Get("bench", pk, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPartitionQuery1000(b *testing.B) {
	s := benchStore(b)
	f := mustFilter(b, "PartitionKey eq '"+pkey(500)+"'")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := s.Query("bench", Query{Filter: f})
		if err != nil || len(p.Entities) != 1000 {
			b.Fatal(err, len(p.Entities))
		}
	}
}

func BenchmarkFullScanFilter(b *testing.B) {
	s := benchStore(b)
	f := mustFilter(b, "Age gt 100") // matches nothing: every entity is examined
	b.ResetTimer()
	scanned := 0
	for i := 0; i < b.N; i++ {
		p, err := s.Query("bench", Query{Filter: f})
		if err != nil || len(p.Entities) != 0 {
			b.Fatal(err)
		}
		scanned += p.Scanned
	}
	b.ReportMetric(float64(scanned)/b.Elapsed().Seconds(), "entities/s")
}

func BenchmarkTransaction100(b *testing.B) {
	s := benchStore(b)
	ops := make([]Op, 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range ops {
			ops[j] = Op{Kind: InsertOrReplace, Entity: typical("tx-"+strconv.Itoa(i%100), rk(j), j)}
		}
		if _, err := s.Transact("bench", ops); err != nil {
			b.Fatal(err.Err)
		}
	}
}

func BenchmarkSnapshot100k(b *testing.B) {
	s := New(Options{Clock: stalled()})
	s.CreateTable("snap")
	for i := 0; i < 100_000; i++ {
		s.Apply("snap", Op{Kind: Insert, Entity: typical(pkey(i/1000), rk(i%1000), i)})
	}
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		n = len(s.Snapshot())
	}
	b.ReportMetric(float64(n), "doc-bytes")
}

// BenchmarkTransactInsert100 stores a batch of 100 inserts into a fresh
// partition, the entities made beforehand: the store's share of a $batch of
// inserts. The table starts afresh every 200 batches (20,000 entities, the
// size a perf run's batch phase reaches), so the figure does not depend on
// how many times the benchmark runs.
func BenchmarkTransactInsert100(b *testing.B) {
	benchTransactInsert100(b, func() *Store { return New(Options{Clock: stalled()}) })
}

// benchTransactInsert100 is BenchmarkTransactInsert100's loop over stores
// that fresh makes.
func benchTransactInsert100(b *testing.B, fresh func() *Store) {
	const perTable = 200
	batches := make([][]Op, perTable)
	for i := range batches {
		batches[i] = make([]Op, 100)
	}
	var s *Store
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%perTable == 0 {
			b.StopTimer()
			s = fresh()
			s.CreateTable("bench")
			for k, ops := range batches {
				for j := range ops {
					ops[j] = Op{Kind: Insert, Entity: typical("tx-"+strconv.Itoa(k), rk(j), j)}
				}
			}
			b.StartTimer()
		}
		if _, err := s.Transact("bench", batches[i%perTable]); err != nil {
			b.Fatal(err.Err)
		}
	}
}
