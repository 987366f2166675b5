package rest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// batchBody is a $batch of n inserts into partition pk, laid out as the Go
// SDK's SubmitTransaction lays it out; query is the parts' URL query ("" for
// none; the Go SDK sends its $format).
func batchBody(pk string, n int, query string) string {
	var b strings.Builder
	b.WriteString("--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n")
	for i := 0; i < n; i++ {
		b.WriteString("--changeset_1\r\nContent-Transfer-Encoding: binary\r\nContent-Type: application/http\r\n\r\n")
		b.WriteString("POST http://127.0.0.1:10002/devstoreaccount1/bench" + query + " HTTP/1.1\r\n")
		b.WriteString("Accept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\nDataserviceversion: 3.0\r\nPrefer: return-no-content\r\nX-Ms-Version: 2019-02-02\r\n\r\n")
		b.Write(typicalEntity(pk, strconv.Itoa(i)))
		b.WriteString("\r\n")
	}
	b.WriteString("--changeset_1--\r\n\r\n--batch_1--\r\n")
	return b.String()
}

// sdkBatchBody is a $batch of n inserts into partition pk byte for byte as
// the Go SDK (aztables 1.4) writes it, as recorded in the transcripts: the
// $format query, Content-Length, and DataServiceVersion and x-ms-version
// empty and not in canonical case.
func sdkBatchBody(pk string, n int) string { return sdkBatchBodyOf(pk, n, typicalEntity) }

// variedEntity is typicalEntity with a note whose length varies with rk,
// so that consecutive parts of a batch differ in Content-Length.
func variedEntity(pk, rk string) []byte {
	e := typicalEntity(pk, rk)
	n, _ := strconv.Atoi(rk)
	return append(e[:len(e)-2], strings.Repeat("!", n%37)+`"}`...)
}

// sdkBatchBodyOf is sdkBatchBody with the entities entity makes.
func sdkBatchBodyOf(pk string, n int, entity func(pk, rk string) []byte) string {
	var b strings.Builder
	b.WriteString("--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n")
	for i := 0; i < n; i++ {
		e := entity(pk, strconv.Itoa(i))
		b.WriteString("--changeset_1\r\nContent-Transfer-Encoding: binary\r\nContent-Type: application/http\r\n\r\n")
		b.WriteString("POST http://127.0.0.1:10002/devstoreaccount1/bench?%24format=application%2Fjson%3Bodata%3Dminimalmetadata HTTP/1.1\r\n")
		b.WriteString("Accept: application/json;odata=minimalmetadata\r\nContent-Length: " + strconv.Itoa(len(e)) +
			"\r\nContent-Type: application/json\r\nDataServiceVersion: \r\nPrefer: return-no-content\r\nx-ms-version: \r\n\r\n")
		b.Write(e)
		b.WriteString("\r\n")
	}
	b.WriteString("--changeset_1--\r\n\r\n--batch_1--\r\n")
	return b.String()
}

// BenchmarkHandlerBatch100SDK is BenchmarkHandlerBatch100 with the Go
// SDK's exact part layout (sdkBatchBody).
func BenchmarkHandlerBatch100SDK(b *testing.B) {
	benchBatchBodies(b, func(pk string) string { return sdkBatchBody(pk, 100) })
}

// BenchmarkHandlerBatch100SDKVaried is BenchmarkHandlerBatch100SDK with
// entities of varied lengths: no part repeats the header block of the part
// before (their Content-Length differs), so each is read in full.
func BenchmarkHandlerBatch100SDKVaried(b *testing.B) {
	benchBatchBodies(b, func(pk string) string { return sdkBatchBodyOf(pk, 100, variedEntity) })
}

// BenchmarkHandlerBatch100 answers a $batch of 100 inserts (a fresh
// partition each time), through the net/http adapter as the server does.
func BenchmarkHandlerBatch100(b *testing.B) { benchBatch(b, "") }

// BenchmarkHandlerBatch100Format is BenchmarkHandlerBatch100 with the
// $format query the Go SDK adds to every part's URL.
func BenchmarkHandlerBatch100Format(b *testing.B) {
	benchBatch(b, "?%24format=application%2Fjson%3Bodata%3Dminimalmetadata")
}

func benchBatch(b *testing.B, query string) {
	benchBatchBodies(b, func(pk string) string { return batchBody(pk, 100, query) })
}

// benchBatchBodies answers the $batch body(pk) for a fresh partition pk
// each time.
func benchBatchBodies(b *testing.B, body func(pk string) string) {
	h, mk := handlerBench(b)
	serve := h
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		reqs[i] = mk("POST", "/devstoreaccount1/$batch", body("p"+strconv.Itoa(i)))
		reqs[i].Header.Set("Content-Type", "multipart/mixed; boundary=batch_1")
	}
	w := &benchWriter{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.reset()
		serve.ServeHTTP(w, reqs[i])
		if w.code != 202 || w.n == 0 {
			b.Fatal(w.code)
		}
	}
}
