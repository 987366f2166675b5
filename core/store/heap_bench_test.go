package store

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// heapBody is an entity shaped as issue 30's scale runs load them: ten
// properties of mixed types, about 500 bytes by the service's size formula.
func heapBody(pk, rk string, i int) []byte {
	return fmt.Appendf(nil, `{"PartitionKey":%q,"RowKey":%q,"Customer":"Customer number %07d","Email":"user%07d@example.com","City":"Springfield",`+
		`"Amount":%d.25,"Amount@odata.type":"Edm.Double","Quantity":%d,"Total":"%d","Total@odata.type":"Edm.Int64","Paid":true,`+
		`"Placed":"2024-05-01T12:00:00.0000000Z","Placed@odata.type":"Edm.DateTime","Ref":"0f8fad5b-d9cb-469f-a165-70867728950e","Ref@odata.type":"Edm.Guid",`+
		`"Note":"a short note about the order, roughly fifty chars"}`, pk, rk, i, i, i%100, i%100, i*10)
}

// heapEntities is how many entities the heap benchmarks load.
const heapEntities = 100_000

// heapStore loads heapEntities entities decoded as the server decodes a
// batch's parts, 100 a transaction, and returns the store and their size
// by the service's formula.
func heapStore(b *testing.B) (*Store, int) {
	return heapStoreOf(b, heapBody, "tenant-%05d", "order-%09d")
}

// heapStoreOf is heapStore for entities of body's shape, keys made with
// the formats pkf (of the batch's number) and rkf (of the entity's).
func heapStoreOf(b *testing.B, body func(pk, rk string, i int) []byte, pkf, rkf string) (*Store, int) {
	s := New(Options{Clock: stalled()})
	s.CreateTable("heap")
	size := 0
	for start := 0; start < heapEntities; start += 100 {
		pk := fmt.Sprintf(pkf, start/100)
		var dec odata.Decoder
		ops := make([]Op, 0, 100)
		for i := start; i < start+100; i++ {
			e, err := dec.Entity(body(pk, fmt.Sprintf(rkf, i), i))
			if err != nil {
				b.Fatal(err)
			}
			ops = append(ops, Op{Kind: Insert, Entity: e})
		}
		out, err := s.Transact("heap", ops)
		if err != nil {
			b.Fatal(err.Err)
		}
		for _, e := range out {
			size += e.Size()
		}
	}
	return s, size
}

// heapOf reports the live heap that build's result holds per entity and its ratio to
// size, the entities' size by the formula.
func heapOf(b *testing.B, size int, build func() any) {
	var perEntity, ratio float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		kept := build()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perEntity = float64(after.HeapAlloc-before.HeapAlloc) / heapEntities
		ratio = perEntity / (float64(size) / heapEntities)
		runtime.KeepAlive(kept)
	}
	b.ReportMetric(perEntity, "heap-B/entity")
	b.ReportMetric(ratio, "heap/size")
}

// BenchmarkHeapPerEntity loads 100,000 entities decoded as the server
// decodes a batch's parts, 100 a transaction, and reports the live heap
// they hold per entity (heap-B/entity) and its ratio to their size by the
// service's formula (heap/size): where a stored entity's bytes go is the
// entity struct, its property slice (a name and a 16-byte value each), the
// values' strings and its 24-byte tree item. Each iteration loads afresh.
func BenchmarkHeapPerEntity(b *testing.B) {
	_, size := heapStore(b)
	heapOf(b, size, func() any {
		s, _ := heapStore(b)
		return s
	})
}

// BenchmarkHeapPerEntityScale is BenchmarkHeapPerEntity for entities of
// make scale's shape (about 340 bytes by the formula, keys as it makes
// them).
func BenchmarkHeapPerEntityScale(b *testing.B) {
	scale := func() (*Store, int) { return heapStoreOf(b, storetest.ScaleEntity, "part%05d", "%08d") }
	_, size := scale()
	heapOf(b, size, func() any {
		s, _ := scale()
		return s
	})
}

// BenchmarkHeapPerEntityLoaded is BenchmarkHeapPerEntity for the same
// entities loaded from snapshot blocks, as a start from a data directory
// holds them.
func BenchmarkHeapPerEntityLoaded(b *testing.B) {
	s, size := heapStore(b)
	blocks := blocksOf(b, s)
	heapOf(b, size, func() any {
		r := New(Options{Clock: stalled()})
		if err := r.LoadBlocks(feed(blocks)); err != nil {
			b.Fatal(err)
		}
		return r
	})
}
