package odata

import (
	"strconv"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

// typicalBody is a 10-property entity of mixed types, the size of a common row.
const typicalBody = `{"PartitionKey":"customers-emea","RowKey":"0001234567","Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210","Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Avatar@odata.type":"Edm.Binary","Avatar":"QmFyQmF6UXV4","Notes":"likes \"analytical engines\""}`

func BenchmarkDecodeEntity(b *testing.B) {
	body := []byte(typicalBody)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeEntity(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeEntity(b *testing.B) {
	e, err := DecodeEntity([]byte(typicalBody))
	if err != nil {
		b.Fatal(err)
	}
	e.Timestamp, _ = edm.ParseDateTime("2024-02-26T20:24:12.2261216Z")
	for _, l := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
		b.Run(l.String(), func(b *testing.B) {
			c := &Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "customers", Level: l}
			buf := make([]byte, 0, 2048)
			b.ReportAllocs()
			for b.Loop() {
				buf = AppendEntity(buf[:0], c, e, nil)
			}
		})
	}
}

// BenchmarkDecoderBatch100 decodes the bodies of a batch of 100 inserts
// with one Decoder, as a $batch's parts are: the entity the perf harness
// and the SDK benchmarks send (ten properties, three annotated).
func BenchmarkDecoderBatch100(b *testing.B) {
	bodies := make([][]byte, 100)
	for i := range bodies {
		bodies[i] = []byte(`{"PartitionKey":"p1","RowKey":"` + strconv.Itoa(100000+i) + `","Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
			`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
			`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
	}
	b.ReportAllocs()
	for b.Loop() {
		var dec Decoder
		for _, body := range bodies {
			if _, err := dec.Entity(body); err != nil {
				b.Fatal(err)
			}
		}
	}
}
