package op

import (
	"strconv"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store"
)

// BenchmarkDecodeStoreBatch100 is the per-entity share of a $batch of 100
// inserts: the parts' bodies decoded with one odata.Decoder (the entity
// rules applied) and stored by one store.Transact, into a fresh partition
// each time; the envelope, the answer and the HTTP around them are left
// out. The entity is the perf harness's (ten properties, three annotated,
// keys in order). The table starts afresh every 200 batches, the size a
// perf run's batch phase reaches.
func BenchmarkDecodeStoreBatch100(b *testing.B) {
	const perTable = 200
	bodies := make([][][]byte, perTable)
	for p := range bodies {
		bodies[p] = make([][]byte, 100)
		for r := range bodies[p] {
			bodies[p][r] = []byte(`{"PartitionKey":"b` + strconv.Itoa(p) + `","RowKey":"` + strconv.Itoa(10000000 + r)[1:] + `","Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
				`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
				`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
		}
	}
	clock := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	ops := make([]store.Op, 100)
	var s *store.Store
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%perTable == 0 {
			b.StopTimer()
			s = store.New(store.Options{Clock: clock})
			s.CreateTable("bench")
			b.StartTimer()
		}
		var dec odata.Decoder
		for r, body := range bodies[i%perTable] {
			e, err := dec.Entity(body)
			if err != nil {
				b.Fatal(err)
			}
			ops[r] = store.Op{Kind: store.Insert, Entity: e}
		}
		if _, err := s.Transact("bench", ops); err != nil {
			b.Fatal(err.Err)
		}
	}
}
