//go:build !js

package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/wire"
)

// The hostile inputs: each parser's worst case within the 4 MiB body limit,
// and the reads whose answers outgrow their requests most.
// Each must cost at most 50 ms of CPU (BenchmarkHostile, one core) and 32 MB
// of heap (TestHostileInputsStayBounded).

// annotated is an entity body of 4 MiB holding as many properties as fit,
// each with an @odata.type annotation; annotationsFirst puts every
// annotation before the properties.
func annotated(annotationsFirst bool) []byte {
	var props, notes strings.Builder
	for i := 0; props.Len()+notes.Len() < rest.MaxBody-100; i++ {
		n := "p" + strconv.Itoa(i)
		props.WriteString(`,"` + n + `":"1"`)
		notes.WriteString(`,"` + n + `@odata.type":"Edm.Int64"`)
	}
	if annotationsFirst {
		return []byte(`{"PartitionKey":"p","RowKey":"r"` + notes.String() + props.String() + `}`)
	}
	return []byte(`{"PartitionKey":"p","RowKey":"r"` + props.String() + notes.String() + `}`)
}

// nulls is an entity body of 4 MiB of null properties, each with an
// annotation.
func nulls() []byte {
	var b strings.Builder
	b.WriteString(`{"PartitionKey":"p","RowKey":"r"`)
	for i := 0; b.Len() < rest.MaxBody-100; i++ {
		n := "p" + strconv.Itoa(i)
		b.WriteString(`,"` + n + `":null,"` + n + `@odata.type":"Edm.Int64"`)
	}
	return []byte(b.String() + "}")
}

// nested is 4 MiB of open arrays (or of objects, each the value of "a").
func nested(objects bool) []byte {
	if objects {
		return []byte(strings.Repeat(`{"a":`, rest.MaxBody/5))
	}
	return []byte(strings.Repeat("[", rest.MaxBody))
}

// deepXML is a 4 MiB XML document under root: elements nested as deeply
// as fit.
func deepXML(root string) string {
	n := (rest.MaxBody - 200) / 7
	return "<?xml version=\"1.0\"?><" + root + ">" + strings.Repeat("<a>", n) + strings.Repeat("</a>", n) + "</" + root + ">"
}

// wideXML is a 4 MiB XML document under root: item repeated as often as
// fits.
func wideXML(root, item string) string {
	n := (rest.MaxBody - 200) / len(item)
	return "<?xml version=\"1.0\"?><" + root + ">" + strings.Repeat(item, n) + "</" + root + ">"
}

// signedXML PUTs an XML document with the account key (ACLs and service
// properties need a signature).
func signedXML(h http.Handler, path, body string) func() bool {
	return func() bool {
		req := httptest.NewRequest("PUT", "http://127.0.0.1/"+rest.WellKnownAccount+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/xml")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signed(req))
		return w.Code == http.StatusBadRequest
	}
}

// manyParts is a $batch of 1,000 inserts (the parser's limit on parts).
func manyParts() string {
	var b strings.Builder
	b.WriteString("--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n")
	for i := 0; i < 1000; i++ {
		b.WriteString("--changeset_y\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"POST http://h/devstoreaccount1/tbl HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n\r\n" +
			`{"PartitionKey":"p","RowKey":"` + strconv.Itoa(i) + `","V":"x"}` + "\r\n")
	}
	b.WriteString("--changeset_y--\r\n--batch_x--\r\n")
	return b.String()
}

// headerLines is a $batch whose one part has n header lines of its own, all
// within the 4 MiB body limit.
func headerLines(n int) string {
	return "--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n--changeset_y\r\nContent-Type: application/http\r\n\r\n" +
		"POST http://h/devstoreaccount1/tbl HTTP/1.1\r\n" + strings.Repeat("A: b\r\n", n) + "\r\n{}\r\n--changeset_y--\r\n--batch_x--\r\n"
}

// partsOfLines is a $batch of up to 999 parts (under the most a batch may
// hold), each with n header lines of one repeated name, within 4 MiB: every
// part is read before any runs, so each part's header block must cost
// little. With distinct, every part's block differs from the one before
// (a block a part repeats is not read again).
func partsOfLines(n int, distinct bool) string {
	part := func(i int) string {
		return "--changeset_y\r\nContent-Type: application/http\r\n\r\nDELETE /tbl(PartitionKey='a',RowKey='b') HTTP/1.1\n" + strings.Repeat("a:\n", n-1) +
			"a:" + distinctValue(i, distinct) + "\n\n\r\n"
	}
	var b strings.Builder
	b.WriteString("--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n")
	for i := 0; i < 999 && b.Len()+len(part(i)) < 4<<20-200; i++ {
		b.WriteString(part(i))
	}
	return b.String() + "--changeset_y--\r\n--batch_x--\r\n"
}

// distinctValue is a header value that differs for each i when distinct,
// and is empty otherwise.
func distinctValue(i int, distinct bool) string {
	if !distinct {
		return ""
	}
	return strconv.Itoa(i)
}

// deletesOfLines is partsOfLines with parts that decode (deletes with
// If-Match): the handler reads and decodes every part, each as the
// envelope is read, and runs none (a batch holds at most 100 operations).
func deletesOfLines(n int, distinct bool) string {
	part := func(i int) string {
		return "--changeset_y\r\nContent-Type: application/http\r\n\r\nDELETE /tbl(PartitionKey='a',RowKey='" + strconv.Itoa(i) +
			"') HTTP/1.1\nIf-Match: *\n" + strings.Repeat("a:\n", n-2) + "a:" + distinctValue(i, distinct) + "\n\n\r\n"
	}
	var b strings.Builder
	b.WriteString("--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n")
	for i := 0; i < 999 && b.Len()+len(part(i)) < 4<<20-200; i++ {
		b.WriteString(part(i))
	}
	return b.String() + "--changeset_y--\r\n--batch_x--\r\n"
}

// deletesOfNames is deletesOfLines with n header lines of distinct names
// (a block read field by field against the part before), the last name
// differing from part to part: each block is matched line by line with
// the one before, to fail only at its last line, and then read in full.
func deletesOfNames(n int) string {
	var names strings.Builder
	for j := 0; j < n-2; j++ {
		names.WriteString("a" + strconv.Itoa(j) + ": v\n")
	}
	part := func(i int) string {
		return "--changeset_y\r\nContent-Type: application/http\r\n\r\nDELETE /tbl(PartitionKey='a',RowKey='" + strconv.Itoa(i) +
			"') HTTP/1.1\nIf-Match: *\n" + names.String() + "z" + strconv.Itoa(i) + ":\n\n\r\n"
	}
	var b strings.Builder
	b.WriteString("--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n")
	for i := 0; i < 999 && b.Len()+len(part(i)) < 4<<20-200; i++ {
		b.WriteString(part(i))
	}
	return b.String() + "--changeset_y--\r\n--batch_x--\r\n"
}

// falseBoundaries is 4 MiB of lines that start like the changeset's
// delimiter without being one, with no delimiter to end the part.
func falseBoundaries() string {
	return "--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n--changeset_y\r\nContent-Type: application/http\r\n\r\n" +
		strings.Repeat("\r\n--changeset_yz", (4<<20)/16)
}

// hostile lists each parser with its worst input; every call must fail
// cleanly (the want checks it did not succeed by accident).
func hostile(tb testing.TB) []struct {
	name string
	call func() bool
} {
	st := store.New(store.Options{Clock: time.Now})
	st.CreateTable("t")
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	h := resthttp.New(rest.New(rest.Options{Store: st, Credentials: creds, Clock: time.Now}))
	send := func(method, path, contentType string, body string) func() bool {
		return func() bool {
			req := httptest.NewRequest(method, "http://127.0.0.1/"+rest.WellKnownAccount+path, strings.NewReader(body))
			req.Header.Set("Content-Type", contentType)
			req.Header.Set("Accept", "application/json;odata=nometadata")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			switch path {
			case "/$batch":
				return w.Code == http.StatusAccepted && strings.Contains(w.Body.String(), "InvalidInput") // over 100 operations
			}
			return w.Code == http.StatusBadRequest
		}
	}
	api := &play.API{Base: "http://h/" + rest.WellKnownAccount, Clock: time.Now, Creds: rest.WellKnown(), Store: st}
	ann, annFirst, arrays, objects, nul := annotated(false), annotated(true), nested(false), nested(true), nulls()
	batch := manyParts()
	lines, tooMany, falseDelims := headerLines(wire.MaxHeaders-1), headerLines(200000), falseBoundaries()
	manyParts, manyPartsOver := partsOfLines(wire.MaxHeaders-1, false), partsOfLines(9990, false)
	manyDistinct := partsOfLines(wire.MaxHeaders-1, true)
	smallEntities(tb, st)
	expandingEntities(tb, st)
	ruled := store.New(store.Options{Clock: time.Now})
	if err := ruled.SetProperties(store.ServiceProperties{Cors: largestCors()}); err != nil {
		tb.Fatal(err)
	}
	afterRules := afterCors(unsignedHandler(ruled))
	return []struct {
		name string
		call func() bool
	}{
		{"DecodeEntity/annotations-after", func() bool { _, err := odata.DecodeEntity(ann); return err != nil }},
		{"DecodeEntity/annotations-first", func() bool { _, err := odata.DecodeEntity(annFirst); return err != nil }},
		{"DecodeDraft/annotations", func() bool { _, err := odata.DecodeDraft(ann); return err != nil }},
		{"DecodeEntity/null-properties", func() bool { _, err := odata.DecodeEntity(nul); return err != nil }},
		{"DecodeEntity/nested-arrays", func() bool { _, err := odata.DecodeEntity(arrays); return err != nil }},
		{"DecodeEntity/nested-objects", func() bool { _, err := odata.DecodeEntity(objects); return err != nil }},
		{"DecodeTableName/nested-arrays", func() bool { _, err := odata.DecodeTableName(arrays, profile.StorageTableNames); return err != nil }},
		{"Handler/insert-annotations", send("POST", "/t", "application/json", string(ann))},
		{"Handler/merge-annotations", send("MERGE", "/t(PartitionKey='p',RowKey='r')", "application/json", string(annFirst))},
		{"Handler/insert-nested", send("POST", "/t", "application/json", string(arrays))},
		{"Handler/create-table-nested", send("POST", "/Tables", "application/json", string(objects))},
		{"Handler/batch-1000-parts", send("POST", "/$batch", "multipart/mixed; boundary=batch_x", batch)},
		{"Handler/batch-parts-most-header-lines", send("POST", "/$batch", "multipart/mixed; boundary=batch_x", deletesOfLines(wire.MaxHeaders, false))},
		{"Handler/batch-parts-most-distinct-header-lines", send("POST", "/$batch", "multipart/mixed; boundary=batch_x", deletesOfLines(wire.MaxHeaders, true))},
		{"Handler/batch-parts-most-named-header-lines", send("POST", "/$batch", "multipart/mixed; boundary=batch_x", deletesOfNames(wire.MaxHeaders))},
		{"Handler/set-acl-nested-xml", signedXML(h, "/t?comp=acl", deepXML("SignedIdentifiers"))},
		{"Handler/set-properties-nested-xml", signedXML(h, "/?restype=service&comp=properties", deepXML("StorageServiceProperties"))},
		{"Handler/set-acl-many-identifiers", signedXML(h, "/t?comp=acl", wideXML("SignedIdentifiers", "<SignedIdentifier/>"))},
		{"Handler/set-acl-many-references", signedXML(h, "/t?comp=acl", wideXML("SignedIdentifiers", "<SignedIdentifier><Id>"+strings.Repeat("&#x41;", 1000)+"</Id></SignedIdentifier>"))},
		{"Handler/set-properties-many-rules", signedXML(h, "/?restype=service&comp=properties", wideXML("StorageServiceProperties", "<Cors><CorsRule/></Cors>"))},
		{"Handler/set-properties-many-elements", signedXML(h, "/?restype=service&comp=properties", strings.Replace(wideXML("StorageServiceProperties", "<a b='c'>d<!---->e</a>"), "</StorageServiceProperties>", "<Logging><Read>x</Read></Logging></StorageServiceProperties>", 1))},
		{"ParseBatch/1000-parts", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(batch))
			return err == nil
		}},
		{"ParseBatch/most-header-lines", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(lines))
			return err == nil
		}},
		{"ParseBatch/1000-parts-most-header-lines", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(manyParts))
			return err == nil
		}},
		{"ParseBatch/1000-parts-most-distinct-header-lines", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(manyDistinct))
			return err == nil
		}},
		{"ParseBatch/parts-over-header-lines", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(manyPartsOver))
			return err != nil
		}},
		{"ParseBatch/too-many-header-lines", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(tooMany))
			return err != nil
		}},
		{"ParseBatch/false-boundaries", func() bool {
			_, err := rest.ParseBatch("multipart/mixed; boundary=batch_x", []byte(falseDelims))
			return err != nil
		}},
		{"play.ParseBody/annotations", func() bool { return strings.Contains(string(api.ParseBody(string(ann))), "TooManyProperties") }},
		{"play.ParseBody/null-properties", func() bool { return strings.Contains(string(api.ParseBody(string(nul))), "TooManyProperties") }},
		{"play.ParseBody/nested", func() bool { return strings.Contains(string(api.ParseBody(string(arrays))), "InvalidInput") }},
		{"play.RequestFor/nested", func() bool { return strings.Contains(string(api.RequestFor(objects)), "error") }},
		{"play.ReadEntities/nested", func() bool { return strings.Contains(string(api.ReadEntities(string(arrays))), "error") }},
		{"store.Restore/nested", func() bool { return st.Restore(objects) != nil }},
		{"Handler/query-select-absent-names", pageWithin(h, "/sel()?$select="+absentNames(250, 250), "application/json;odata=minimalmetadata")},
		{"Handler/query-fullmetadata-expanding", pageWithin(h, "/full()", "application/json;odata=fullmetadata")},
		{"Handler/set-properties-comma-origins", signedXML(h, "/?restype=service&comp=properties", commaOrigins())},
		{"Handler/request-after-largest-cors-rules", afterRules},
	}
}

// cost runs f once on a fresh goroutine and returns the heap it allocated
// (an upper bound of the extra heap it held at its peak) and the stack the
// goroutine grew.
func cost(f func() bool) (heap, stack uint64, ok bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ok = f()
		runtime.ReadMemStats(&after)
		heap = after.TotalAlloc - before.TotalAlloc
		if after.StackInuse > before.StackInuse {
			stack = after.StackInuse - before.StackInuse
		}
	}()
	<-done
	return heap, stack, ok
}

func TestHostileInputsStayBounded(t *testing.T) {
	const limit = 32 << 20
	for _, h := range hostile(t) {
		heap, stack, ok := cost(h.call)
		if !ok {
			t.Errorf("%s: not refused as expected", h.name)
		}
		if heap+stack > limit {
			t.Errorf("%s: %.1f MB of heap and %.1f MB of stack, over %d MB", h.name, float64(heap)/1e6, float64(stack)/1e6, limit>>20)
		}
		t.Logf("%-32s heap %6.2f MB  stack %5.2f MB", h.name, float64(heap)/(1<<20), float64(stack)/(1<<20))
	}
}

// cpuTime is the process's CPU time (user and system) in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkHostile(b *testing.B) {
	for _, h := range hostile(b) {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if !h.call() {
					b.Fatal(fmt.Sprintf("%s: not refused as expected", h.name))
				}
			}
			// CPU time, not wall time: the machine may be shared.
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
