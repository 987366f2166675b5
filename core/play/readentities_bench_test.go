package play

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tidwall/gjson"
)

// queryFeed is a query answer of n entities of ten typed properties, in
// minimal metadata with ETags, as the page's query view receives it.
func queryFeed(n int) string {
	var b strings.Builder
	b.WriteString(`{"odata.metadata":"http://h/devstoreaccount1/$metadata#T","value":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"odata.etag":"W/\"datetime'2026-11-22T12%%3A00%%3A00.%07dZ'\"","PartitionKey":"p%d","RowKey":"r%05d","Timestamp":"2026-11-22T12:00:00.%07dZ",`+
			`"Name":"customer \"%d\"","Age":%d,"Big@odata.type":"Edm.Int64","Big":"9007199254740993","Price":%d.5,"Active":true,`+
			`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","When@odata.type":"Edm.DateTime","When":"2026-11-22T12:34:56.1234567Z",`+
			`"Blob@odata.type":"Edm.Binary","Blob":"AQID","Note":"line\nbreak","Ratio":2.0}`, i, i%7, i, i, i, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestReadEntitiesJSONMatchesMarshal: the hand-written answer reads back to
// the rows encoding/json gives for the same entities (control characters,
// quotes, invalid UTF-8 and non-ASCII included, keys missing).
func TestReadEntitiesJSONMatchesMarshal(t *testing.T) {
	feed := queryFeed(20)
	feed = strings.Replace(feed, `"Note":"line\nbreak"`, `"Note":"tab\t<&> \u2028 é \u0001 \"q\" \\ \ud800"`, 1)
	feed = strings.Replace(feed, `"PartitionKey":"p3","RowKey":"r00003",`, ``, 1)
	a := newAPI("http://h/devstoreaccount1")
	got := a.ReadEntities(feed)
	var rows []Listed
	if err := json.Unmarshal(got, &rows); err != nil {
		t.Fatalf("%v: %.300s", err, got)
	}
	// The rows as encoding/json writes them, from the same decoding.
	var want []Listed
	for _, o := range gjson.Get(feed, "value").Array() {
		d, err := odata.DecodeDraft([]byte(o.Raw))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, Listed{ETag: o.Get(gjson.Escape("odata.etag")).String(), Timestamp: o.Get("Timestamp").String(), Draft: draftOf(d, o.Raw)})
	}
	marshalled, _ := json.Marshal(want)
	var back []Listed
	if err := json.Unmarshal(marshalled, &back); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 20 || !reflect.DeepEqual(rows, back) {
		t.Fatalf("\n got %.400s\nwant %.400s", got, marshalled)
	}
	if rows[3].Draft.PartitionKey != nil || rows[4].Draft.PartitionKey == nil {
		t.Errorf("keys: %+v %+v", rows[3].Draft, rows[4].Draft)
	}
}

func BenchmarkReadEntities1000(b *testing.B) {
	a := newAPI("http://h/devstoreaccount1")
	feed := queryFeed(1000)
	b.ReportAllocs()
	b.SetBytes(int64(len(feed)))
	for b.Loop() {
		if out := a.ReadEntities(feed); len(out) < 1000 {
			b.Fatal(string(out))
		}
	}
}
