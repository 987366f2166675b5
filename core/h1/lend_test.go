package h1

import (
	"fmt"
	"strings"
	"testing"
)

// TestLentBodyOutlivesTheConnection: a body large enough to be lent to the
// engine (no copy), or a small one handed over as its own copy, is stored
// as sent, even after the requests behind it on the same connection have
// been read into the connection's buffer.
func TestLentBodyOutlivesTheConnection(t *testing.T) {
	req := func(method, target, body string) string {
		return fmt.Sprintf("%s %s HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			method, target, len(body), body)
	}
	entity := func(rk string, fill byte, n int) string {
		return `{"PartitionKey":"p","RowKey":"` + rk + `","V":"` + strings.Repeat(string(fill), n) + `"}`
	}
	// 200: below lendSize, a body the engine gets as its own copy.
	for _, size := range []int{200, lendSize, 32000} {
		in := req("POST", "/devstoreaccount1/Tables", `{"TableName":"Lend"}`)
		// The second body is longer than the first, so it covers the bytes
		// where the first one lay, were that buffer read into again.
		in += req("POST", "/devstoreaccount1/Lend", entity("a", 'a', min(size, 32000)))
		in += req("POST", "/devstoreaccount1/Lend", entity("b", 'b', min(size+100, 32000)))
		in += req("GET", "/devstoreaccount1/Lend(PartitionKey='p',RowKey='a')", "")
		// A batch (over lendSize when the body is): its parts are read out
		// of the body's string.
		parts := max(size/500, 8)
		in += batchRequest("Lend", "c", parts)
		in += req("GET", "/devstoreaccount1/Lend(PartitionKey='c',RowKey='r7')", "")
		mc, handed := newMemServer().serve([]byte(in), 4096)
		if handed != nil {
			t.Fatalf("size %d: handed over", size)
		}
		out := mc.out.String()
		// The answers in order: 201 table, 201 a, 201 b, 200 a, 202 batch
		// (holding its parts' own status lines), 200 r7.
		getA := strings.Index(out, "HTTP/1.1 200 OK")
		batch := strings.Index(out, "HTTP/1.1 202 Accepted")
		last := strings.LastIndex(out, "HTTP/1.1 200 OK")
		if getA < 0 || batch < getA || last < batch || strings.Count(out[:getA], "HTTP/1.1 201 Created") != 3 {
			t.Fatalf("size %d: answers out of order (200 at %d, 202 at %d, last 200 at %d)", size, getA, batch, last)
		}
		if want := `"V":"` + strings.Repeat("a", min(size, 32000)) + `"`; !strings.Contains(out[getA:batch], want) {
			t.Errorf("size %d: entity a not read back as stored", size)
		}
		if n := strings.Count(out[batch:last], "HTTP/1.1 204 No Content"); n != parts {
			t.Errorf("size %d: %d parts answered 204, want %d", size, n, parts)
		}
		if want := `"Note":"part r7 ` + strings.Repeat("n", 300) + `"`; !strings.Contains(out[last:], want) {
			t.Errorf("size %d: batch entity r7 not read back as stored: %.200q", size, out[last:])
		}
	}
}

// batchRequest is a $batch of n inserts into table, partition pk, each
// entity about 500 bytes with its part's header.
func batchRequest(table, pk string, n int) string {
	var b strings.Builder
	b.WriteString("--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_x\r\n\r\n")
	for i := range n {
		e := fmt.Sprintf(`{"PartitionKey":"%s","RowKey":"r%d","Note":"part r%d %s"}`, pk, i, i, strings.Repeat("n", 300))
		fmt.Fprintf(&b, "--changeset_x\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"+
			"POST http://127.0.0.1:10002/devstoreaccount1/%s HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n"+
			"Prefer: return-no-content\r\nContent-Length: %d\r\n\r\n%s\r\n", table, len(e), e)
	}
	b.WriteString("--changeset_x--\r\n--batch_x--\r\n")
	body := b.String()
	return fmt.Sprintf("POST /devstoreaccount1/$batch HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nContent-Type: multipart/mixed; boundary=batch_x\r\n"+
		"Content-Length: %d\r\n\r\n%s", len(body), body)
}
