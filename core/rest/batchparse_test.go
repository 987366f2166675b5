package rest

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// goPart is a batch part as Go's own readers (mime/multipart and
// http.ReadRequest) read it, for comparison with ParseBatch.
type goPart struct {
	method, url, contentID string
	body                   []byte
}

// goParseBatch reads a $batch body with mime/multipart (raw parts: no
// quoted-printable decoding) and http.ReadRequest, as the service's parser
// once did; ok is false when they refuse it.
func goParseBatch(contentType string, body []byte) (parts []goPart, single bool, ok bool) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, false, false
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	part, err := mr.NextRawPart()
	if err != nil {
		return nil, false, false
	}
	pmt, pparams, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
	if err != nil {
		return nil, false, false
	}
	read := func(p *multipart.Part) (goPart, bool) {
		if mt, _, err := mime.ParseMediaType(p.Header.Get("Content-Type")); err != nil || mt != "application/http" {
			return goPart{}, false
		}
		raw, err := io.ReadAll(io.LimitReader(p, MaxBody+1))
		if err != nil || len(raw) > MaxBody {
			return goPart{}, false
		}
		br := bufio.NewReader(bytes.NewReader(append(raw, "\r\n\r\n"...)))
		req, err := http.ReadRequest(br)
		if err != nil {
			return goPart{}, false
		}
		rest, _ := io.ReadAll(br)
		if req.ContentLength > 0 {
			b, _ := io.ReadAll(req.Body)
			rest = append(b, rest...)
		}
		return goPart{method: req.Method, url: req.URL.String(), contentID: strings.TrimSpace(req.Header.Get("Content-ID")), body: bytes.TrimSpace(rest)}, true
	}
	switch {
	case pmt == "multipart/mixed" && pparams["boundary"] != "":
		cs := multipart.NewReader(part, pparams["boundary"])
		for {
			p, err := cs.NextRawPart()
			if err == io.EOF {
				break
			}
			if err != nil || len(parts) == maxBatchParts {
				return nil, false, false
			}
			gp, ok := read(p)
			if !ok {
				return nil, false, false
			}
			parts = append(parts, gp)
		}
	case pmt == "application/http":
		gp, ok := read(part)
		if !ok || gp.method != "GET" {
			return nil, false, false
		}
		parts, single = []goPart{gp}, true
	default:
		return nil, false, false
	}
	if _, err := mr.NextRawPart(); err != io.EOF {
		return nil, false, false
	}
	return parts, single, true
}

// FuzzParseBatchMatchesGo: ParseBatch reads an envelope exactly as Go's
// multipart and HTTP readers read it (parts, methods, URLs, bodies,
// Content-IDs), and accepts nothing they refuse.
func FuzzParseBatchMatchesGo(f *testing.F) {
	for _, s := range batchSeeds() {
		f.Add("multipart/mixed; boundary=b", s)
	}
	f.Fuzz(func(t *testing.T, ct, body string) {
		want, single, ok := goParseBatch(ct, []byte(body))
		// Each part's header block is read once, into a map the parts share:
		// it holds the part's own fields while the part is handed over.
		var got []batchPart
		header := func(p *batchPart) {
			if p.req.Header == nil || strings.TrimSpace(p.req.Header.Get("Content-ID")) != p.contentID {
				t.Fatalf("%q part %d: header %q, Content-ID %q", body, len(got), p.req.Header, p.contentID)
			}
		}
		get, err := parseBatchText(ct, []byte(body), "", func(p *batchPart, parts int) {
			if parts < len(got)+1 {
				t.Fatalf("%q: part %d handed over with an estimate of %d parts", body, len(got), parts)
			}
			header(p)
			got = append(got, *p)
		})
		if err != nil {
			// Go's readers have no bound on a part's header lines.
			if ok && !strings.Contains(body, "Transfer-Encoding") && strings.Count(body, "\n") <= wire.MaxHeaders {
				t.Fatalf("refused what Go reads: %q", body)
			}
			return
		}
		if !ok {
			t.Fatalf("accepted what Go refuses: %q", body)
		}
		if get != nil {
			header(get)
			got = []batchPart{*get}
		}
		if single != (get != nil) || len(got) != len(want) {
			t.Fatalf("%q: %d parts (single %v), Go %d (single %v)", body, len(got), get != nil, len(want), single)
		}
		for i, p := range got {
			w := want[i]
			if p.req.Method != w.method || p.req.URL.String() != w.url || p.contentID != w.contentID || !bytes.Equal(p.req.Body, w.body) {
				t.Fatalf("%q part %d: %s %s %q %q, Go %s %s %q %q", body, i, p.req.Method, p.req.URL, p.contentID, p.req.Body, w.method, w.url, w.contentID, w.body)
			}
		}
	})
}

func batchSeeds() []string {
	return []string{
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nPOST http://h/devstoreaccount1/t HTTP/1.1\r\nContent-Type: application/json\r\nContent-ID: 1\r\nContent-Length: 5\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}\r\n--c\r\nContent-Type: application/http\r\n\r\nDELETE /t(PartitionKey='p',RowKey='q') HTTP/1.1\r\nIf-Match: *\r\n--c--\r\n--b--\r\n",
		"--b\nContent-Type: multipart/mixed; boundary=c\n\n--c--\n--b--",
		"--b\r\nContent-Type: application/http\r\n\r\nGET /t(PartitionKey='a',RowKey='b') HTTP/1.1\r\n\r\n--b--\r\n",
		"--b\r\nContent-Type: application/http\r\n\r\nGET /t HTTP/1.1\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPUT /t(PartitionKey='a',RowKey='b') HTTP/1.1\r\nContent-Length: x\r\n\r\n{}\r\n--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPUT /t HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n{}\r\n--c--\r\n--b--\r\n",
		// Parts repeating the header block, the target or the MIME header of
		// the part before, or only a prefix of them, or with another protocol.
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST /t HTTP/1.1\r\nContent-ID: 1\r\n\r\n{}\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST /t HTTP/1.1\r\nContent-ID: 1\r\n\r\n{\"a\":1}\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST /u HTTP/1.1\r\nContent-ID: 1\r\nContent-ID: 2\r\n\r\n{}\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST /u HTTP/1.1\r\nContent-ID: 1\r\n--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPUT /t HTTP/1.0\r\nTransfer-Encoding: gzip\r\n\r\n{}\r\n--c\r\nContent-Type: application/http\r\n\r\nPUT /t HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n{}\r\n--c--\r\n--b--\r\n",
	}
}

// sameOperations reports whether two decoded operation lists are the same:
// reflect.DeepEqual for every field, and edm.Value.Equal for their
// entities' values, which DeepEqual cannot judge (it follows a string's
// pointer to its first byte and compares no further).
func sameOperations(a, b []op.Operation) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	for i := range a {
		if a[i].Entity == nil {
			continue
		}
		for j, p := range a[i].Entity.Properties {
			if !p.Value.Equal(b[i].Entity.Properties[j].Value) {
				return false
			}
		}
	}
	return true
}

// TestSameOperationsSeesEveryByte: the repeated-parts check tells an
// entity's values apart past their first byte.
func TestSameOperationsSeesEveryByte(t *testing.T) {
	one := func(s string) []op.Operation {
		return []op.Operation{{Kind: op.Insert, Table: "t", Entity: &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "S", Value: edm.StringValue(s)}}}}}
	}
	if sameOperations(one("ab"), one("ac")) || !sameOperations(one("ab"), one("a"+"b")) {
		t.Fatal("sameOperations does not compare a string's every byte")
	}
}

// FuzzDecodeBatchRepeatedParts: decoding a changeset's parts as the
// handler does, a part that repeats the method, target and header block of
// the part before reusing its head, gives what decoding every part on its
// own gives, up to the first that fails; an envelope error drops it all.
func FuzzDecodeBatchRepeatedParts(f *testing.F) {
	const ct = "multipart/mixed; boundary=b"
	insert := func(rk string) string {
		return "--c\r\nContent-Type: application/http\r\n\r\nPOST http://h/devstoreaccount1/t?$format=application/json;odata=nometadata HTTP/1.1\r\nPrefer: return-no-content\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"" + rk + "\"}\r\n"
	}
	merge := "--c\r\nContent-Type: application/http\r\n\r\nMERGE /devstoreaccount1/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\nIf-Match: *\r\n\r\n{}\r\n"
	for _, s := range append(batchSeeds(),
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+insert("a")+insert("b")+insert("c")+merge+merge+insert("'")+"--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+merge+merge+strings.Replace(merge, "If-Match: *", "If-Match: x", 1)+merge+"--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+insert("a")+insert("a\x00")+insert("b")+"--c--\r\n--b--\r\n",
		// Header blocks that differ in Content-Length alone, or in more.
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+
			strings.Replace(insert("a"), "Prefer:", "Content-Length: 30\r\nPrefer:", 1)+strings.Replace(insert("bb"), "Prefer:", "Content-Length: 31\r\nPrefer:", 1)+
			strings.Replace(insert("c"), "Prefer: return-no-content", "Content-Length: 30\r\nPrefer: return-content", 1)+
			strings.Replace(insert("d"), "Prefer: return-no-content", "Content-Length: 31\r\nPrefer: return-content", 1)+"--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+
			strings.Replace(insert("a"), "Prefer:", "Content-Length: 30\r\nPrefer:", 1)+strings.Replace(insert("e"), "Prefer:", "Content-Length: 3x\r\nPrefer:", 1)+"--c--\r\n--b--\r\n",
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+
			strings.Replace(merge, "If-Match: *", "Content-Length: 2\r\nIf-Match: *", 1)+strings.Replace(merge, "If-Match: *", "Content-Length: 3\r\nIf-Match: W/\"x\"", 1)+
			strings.Replace(merge, "If-Match: *", "Content-Length: 4\r\nIf-Match: W/\"x\"", 1)+"--c--\r\n--b--\r\n",
		// The same header block with another method, or another target.
		"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n"+merge+strings.Replace(merge, "MERGE", "PUT", 1)+strings.Replace(merge, "RowKey='r'", "RowKey='s'", 1)+
			strings.Replace(merge, "/t(", "/u(", 1)+strings.Replace(merge, "MERGE", "DELETE", 1)+"--c--\r\n--b--\r\n",
	) {
		f.Add(s)
	}
	h := testHandler(store.New(store.Options{Clock: time.Now}))
	f.Fuzz(func(t *testing.T, body string) {
		newExchange := func() *exchange {
			return &exchange{h: h, r: Request{Method: "POST"}, version: DefaultVersion, format: format{level: odata.MinimalMetadata}}
		}
		var got decoded
		gotOK, _ := newExchange().decodeBatch(&got, ct, []byte(body), "")
		// Each part decoded on its own, from its own header.
		var want decoded
		x := newExchange()
		x.parts = &partsState{}
		_, err := parseBatchText(ct, []byte(body), "", func(p *batchPart, _ int) {
			if want.failed != nil {
				return
			}
			pd := x.decode(x.partSource(p))
			if pd.op.Kind == op.Get && pd.early == nil {
				pd.early = tableerr.New(tableerr.InvalidInput)
			}
			want.parts = append(want.parts, pd.answer())
			if err := firstErr(pd.early, pd.denied, pd.late); err != nil {
				want.failed = &partError{index: len(want.parts) - 1, err: err}
				return
			}
			want.op.Operations = append(want.op.Operations, pd.op)
		})
		if gotOK != (err == nil) {
			t.Fatalf("%q: decodeBatch %v, the envelope's error %v", body, gotOK, err)
		}
		if !gotOK {
			if got.parts != nil || got.op.Operations != nil || got.failed != nil {
				t.Fatalf("%q: a malformed envelope keeps its parts' decoding", body)
			}
			return
		}
		if len(got.parts)+len(want.parts) > 0 && !reflect.DeepEqual(got.parts, want.parts) ||
			len(got.op.Operations)+len(want.op.Operations) > 0 && !sameOperations(got.op.Operations, want.op.Operations) ||
			!reflect.DeepEqual(got.failed, want.failed) {
			t.Fatalf("%q: decoded\n%+v %+v %+v\non their own\n%+v %+v %+v", body, got.parts, got.op.Operations, got.failed, want.parts, want.op.Operations, want.failed)
		}
	})
}
