package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// Benchmarks through the Go SDK over loopback report requests per second;
// the Handler* ones call the handler directly for its allocations per
// request (-benchmem).

func typicalEntity(pk, rk string) []byte {
	return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `","Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
		`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
		`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
}

// benchTable is the SDK on a new table "bench" of a new fixture, with
// 1,000 entities in each partition fill names.
func benchTable(b *testing.B, fill ...string) *aztables.Client {
	f := newFixture(b)
	f.svc.CreateTable(ctx, "bench", nil)
	c := f.svc.NewClient("bench")
	for _, pk := range fill {
		fillPartition(b, c, pk, 1000)
	}
	return c
}

// timeRequests runs call b.N times, timed, and reports requests per second.
func timeRequests(b *testing.B, call func(i int) error) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := call(i); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

func BenchmarkSDKInsert(b *testing.B) {
	c := benchTable(b)
	timeRequests(b, func(i int) error {
		_, err := c.AddEntity(ctx, typicalEntity("p", strconv.Itoa(i)), nil)
		return err
	})
}

func BenchmarkSDKPointRead(b *testing.B) {
	c := benchTable(b, "p")
	timeRequests(b, func(i int) error {
		_, err := c.GetEntity(ctx, "p", fmt.Sprintf("%06d", i%1000), nil)
		return err
	})
}

func BenchmarkSDKPartitionQuery1000(b *testing.B) {
	c := benchTable(b, "p", "q")
	timeRequests(b, func(int) error {
		p := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("PartitionKey eq 'q'")})
		page, err := p.NextPage(ctx)
		if err == nil && len(page.Entities) != 1000 {
			err = fmt.Errorf("a page of %d entities", len(page.Entities))
		}
		return err
	})
}

func BenchmarkSDKTransaction100(b *testing.B) {
	c := benchTable(b)
	actions := make([]aztables.TransactionAction, 100)
	timeRequests(b, func(i int) error {
		for j := range actions {
			actions[j] = aztables.TransactionAction{ActionType: aztables.TransactionTypeInsertReplace, Entity: typicalEntity("p"+strconv.Itoa(i%50), strconv.Itoa(j))}
		}
		_, err := c.SubmitTransaction(ctx, actions, nil)
		return err
	})
}

// handlerBench serves requests straight from memory, with the signature
// check on, as the native server does.
func handlerBench(b *testing.B) (http.Handler, func(method, path, body string) *http.Request) {
	st := store.New(store.Options{Clock: time.Now})
	h := resthttp.New(rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: time.Now}))
	mk := func(method, path, body string) *http.Request {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Accept", "application/json;odata=minimalmetadata")
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-ms-version", "2019-02-02")
		d := time.Now().UTC().Format(http.TimeFormat)
		r.Header.Set("x-ms-date", d)
		r.Header.Set("Authorization", rest.WellKnown().Sign(d, r.URL))
		return r
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, mk("POST", "/devstoreaccount1/Tables", `{"TableName":"bench"}`))
	return h, mk
}

// benchWriter is a ResponseWriter as light as net/http's own: a fresh header
// map per response (net/http makes one too) and the body counted, not kept,
// so -benchmem shows the handler's allocations rather than a recorder's.
type benchWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *benchWriter) Header() http.Header         { return w.h }
func (w *benchWriter) WriteHeader(code int)        { w.code = code }
func (w *benchWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

func (w *benchWriter) reset() { w.h, w.code, w.n = make(http.Header), 0, 0 }

func BenchmarkHandlerInsert(b *testing.B) {
	h, mk := handlerBench(b)
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		reqs[i] = mk("POST", "/devstoreaccount1/bench", string(typicalEntity("p", strconv.Itoa(i))))
	}
	benchEach(b, h, reqs, 201, 1)
}

// benchEach times h answering each of reqs once, each with code and a
// body of at least minBody bytes.
func benchEach(b *testing.B, h http.Handler, reqs []*http.Request, code, minBody int) {
	w := &benchWriter{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.reset()
		h.ServeHTTP(w, reqs[i])
		if w.code != code || w.n < minBody {
			b.Fatal(w.code, w.n)
		}
	}
}

func BenchmarkHandlerPointRead(b *testing.B) {
	h, mk := handlerBench(b)
	h.ServeHTTP(httptest.NewRecorder(), mk("POST", "/devstoreaccount1/bench", string(typicalEntity("p", "r"))))
	benchGet(b, h, mk("GET", "/devstoreaccount1/bench(PartitionKey='p',RowKey='r')", ""), 1)
}

// BenchmarkHandlerPartitionQuery1000 is the server's share of a query
// answering 1,000 entities of a partition, asked again and again: the scan
// and the writing of every entity (from the encoding a page keeps).
func BenchmarkHandlerPartitionQuery1000(b *testing.B) {
	h, mk := handlerBench(b)
	for i := 0; i < 1000; i++ {
		h.ServeHTTP(httptest.NewRecorder(), mk("POST", "/devstoreaccount1/bench", string(typicalEntity("q", strconv.Itoa(10000+i)))))
	}
	benchGet(b, h, mk("GET", "/devstoreaccount1/bench()?$filter=PartitionKey%20eq%20'q'", ""), 100_000)
}

// benchGet times h answering req, which must answer 200 with a body of at
// least minBody bytes.
func benchGet(b *testing.B, h http.Handler, req *http.Request, minBody int) {
	w := &benchWriter{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.reset()
		h.ServeHTTP(w, req)
		if w.code != 200 || w.n < minBody {
			b.Fatal(w.code, w.n)
		}
	}
}

// BenchmarkHandlerUpsertMerge is the server's share of make perf's merge
// phase: an upsert-merge of two properties into one of 1,000 stored
// entities, in turn.
func BenchmarkHandlerUpsertMerge(b *testing.B) {
	h, mk := handlerBench(b)
	for i := 0; i < 1000; i++ {
		h.ServeHTTP(httptest.NewRecorder(), mk("POST", "/devstoreaccount1/bench", string(typicalEntity("m", strconv.Itoa(10000+i)))))
	}
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		reqs[i] = mk("MERGE", "/devstoreaccount1/bench(PartitionKey='m',RowKey='"+strconv.Itoa(10000+i%1000)+"')",
			`{"Age":`+strconv.Itoa(i%90)+`,"Notes":"merged `+strconv.Itoa(i)+`"}`)
	}
	benchEach(b, h, reqs, 204, 0)
}
