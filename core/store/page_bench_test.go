package store

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/odata"
)

// The shapes of cmd/perf's query phases at the store: a page read and
// written as a minimal-metadata body, as the server answers a query.

// pageBody is cmd/perf's entity (ten properties across the Edm types) with
// the scan's Group property.
func pageBody(pk, rk string, row int) []byte {
	return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `","Group":` + strconv.Itoa(row%10) +
		`,"Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
		`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
		`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
}

// pageStore holds partitions×rows entities decoded from pageBody, inserted
// 100 at a time. Each decode is followed by a request's worth of other
// allocations, so that the entities lie scattered through memory as a
// server's do, rather than packed together as a loop of inserts alone
// would leave them.
func pageStore(b *testing.B, partitions, rows int) *Store {
	b.Helper()
	s := New(Options{Clock: time.Now})
	s.CreateTable("pages")
	var between [][]byte
	row := 0
	for p := 0; p < partitions; p++ {
		pk := "p" + strconv.Itoa(p)
		for start := 0; start < rows; start += 100 {
			var ops []Op
			var dec odata.Decoder // as the server decodes a batch's parts
			for r := start; r < rows && r < start+100; r++ {
				e, err := dec.Entity(pageBody(pk, rk(r), row))
				if err != nil {
					b.Fatal(err)
				}
				ops = append(ops, Op{Kind: Insert, Entity: e})
				between = append(between, make([]byte, 4096+64*(row%64)))
				row++
			}
			if _, err := s.Transact("pages", ops); err != nil {
				b.Fatal(err.Err)
			}
		}
	}
	runtime.KeepAlive(between)
	return s
}

func benchPage(b *testing.B, s *Store, filterText string, want int) {
	f := mustFilter(b, filterText)
	c := &odata.Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "pages", Level: odata.MinimalMetadata}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		p, err := s.Query("pages", Query{Filter: f})
		if err != nil || len(p.Entities) != want {
			b.Fatal(err, len(p.Entities))
		}
		buf = odata.AppendEntities(buf[:0], c, p.Entities, nil)
	}
}

// BenchmarkPageScan is cmd/perf's scan: 5,000 entities in 50 partitions, a
// filter on a custom property matching 500.
func BenchmarkPageScan(b *testing.B) {
	benchPage(b, pageStore(b, 50, 100), "Group eq 3", 500)
}

// BenchmarkPageScanCold is BenchmarkPageScan with the CPU caches flushed
// (a buffer larger than them written) before each query, untimed: a
// server's scan follows other requests and the client's work, so its
// entities are rarely still cached, and its cost is then mostly the cache
// lines it reads per entity examined.
func BenchmarkPageScanCold(b *testing.B) {
	s := pageStore(b, 50, 100)
	f := mustFilter(b, "Group eq 3")
	flush := make([]byte, 64<<20)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := 0; j < len(flush); j += 64 {
			flush[j]++
		}
		b.StartTimer()
		p, err := s.Query("pages", Query{Filter: f})
		if err != nil || len(p.Entities) != 500 {
			b.Fatal(err, len(p.Entities))
		}
	}
}

// BenchmarkPagePartition is cmd/perf's partition query: 200 entities of one
// partition among ten.
func BenchmarkPagePartition(b *testing.B) {
	benchPage(b, pageStore(b, 10, 200), "PartitionKey eq 'p3'", 200)
}

// BenchmarkUpsertMerge is cmd/perf's upsert-merge: two properties, one of
// them new the first time, merged into entities of one partition.
func BenchmarkUpsertMerge(b *testing.B) {
	s := pageStore(b, 1, 1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		body := `{"PartitionKey":"p0","RowKey":"` + rk(i%1000) + `","Visits@odata.type":"Edm.Int64","Visits":"` + strconv.Itoa(i) + `","Note":"merged"}`
		e, err := odata.DecodeEntity([]byte(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Apply("pages", Op{Kind: InsertOrMerge, Entity: e}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
