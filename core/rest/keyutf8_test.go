package rest

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// restart replays what the journal kept into a new account, as a server's
// start does from its log.
func restart(t *testing.T, j *storetest.Journal) *store.Store {
	t.Helper()
	st := store.New(store.Options{Clock: time.Now})
	for _, r := range j.Records() {
		if err := st.Redo(r); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func call(h *Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/devstoreaccount1/"+target, strings.NewReader(body))
	req.Header.Set("Accept", "application/json;odata=nometadata")
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	serve(h, rec, req)
	return rec
}

// Issue 29, item 6: percent-encoded keys that are not UTF-8 used to be
// stored as they were, compare equal to each other (one entity for
// caf%E9, caf%C0%80 and caf%E8) and come back from the log as U+FFFD. They
// are refused now (F-KEY-UTF8), on every path that takes a URL key; issue
// 40, item 9: bodies' bytes that are not UTF-8 and lone surrogate escapes
// (which were read as U+FFFD, one key for \ud800, \udc00, 0xFF and U+FFFD)
// are refused too, in keys and values.
func TestKeysThatAreNotUTF8(t *testing.T) {
	j := &storetest.Journal{}
	st := store.New(store.Options{Clock: time.Now, Journal: j})
	h := testHandler(st)
	if rec := call(h, "POST", "Tables", `{"TableName":"keys"}`); rec.Code != 204 && rec.Code != 201 {
		t.Fatalf("create table: %d %s", rec.Code, rec.Body)
	}
	for _, key := range []string{"caf%E9", "caf%C0%80", "caf%E8", "%ED%A0%80", "%FF"} {
		for _, pred := range []string{"PartitionKey='" + key + "',RowKey='r'", "PartitionKey='p',RowKey='" + key + "'"} {
			target := "keys(" + pred + ")"
			for _, m := range []struct{ method, body string }{{"PUT", `{"V":1}`}, {"MERGE", `{"V":1}`}, {"GET", ""}, {"DELETE", ""}} {
				rec := call(h, m.method, target, m.body, "If-Match", "*")
				if m.method == "PUT" || m.method == "MERGE" {
					rec = call(h, m.method, target, m.body) // an upsert
				}
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), "InvalidInput") {
					t.Errorf("%s %s: %d %s", m.method, target, rec.Code, rec.Body)
				}
			}
			batch := "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
				"PUT http://127.0.0.1/devstoreaccount1/" + target + " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n\r\n{\"V\":1}\r\n--c--\r\n--b--\r\n"
			rec := call(h, "POST", "$batch", batch, "Content-Type", "multipart/mixed; boundary=b")
			if rec.Code != 202 || !strings.Contains(rec.Body.String(), "400 Bad Request") || !strings.Contains(rec.Body.String(), "InvalidInput") {
				t.Errorf("batch PUT %s: %d %s", target, rec.Code, rec.Body)
			}
		}
	}
	if n, _ := st.Count("keys"); n != 0 {
		t.Fatalf("%d entities stored from keys that are not UTF-8", n)
	}

	// Bodies: bytes that are not UTF-8 and lone surrogate escapes are
	// refused, in keys and in values, for inserts, upserts and batch parts
	// alike: read as U+FFFD they would make distinct keys one.
	for _, body := range []string{
		"{\"PartitionKey\":\"caf\xe9\",\"RowKey\":\"r\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\xff\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\ud800\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\udc00\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\udfff\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\ud800\\u0041\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"V\":\"x\\udc00y\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"W\":\"\xc0\x80\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"caf\xe9\":1}",
	} {
		if rec := call(h, "POST", "keys", body); rec.Code != 400 || !strings.Contains(rec.Body.String(), "InvalidInput") {
			t.Errorf("insert %q: %d %s", body, rec.Code, rec.Body)
		}
		if rec := call(h, "PUT", "keys(PartitionKey='p',RowKey='r')", body); rec.Code != 400 || !strings.Contains(rec.Body.String(), "InvalidInput") {
			t.Errorf("upsert %q: %d %s", body, rec.Code, rec.Body)
		}
		batch := "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"POST http://127.0.0.1/devstoreaccount1/keys HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n\r\n" + body + "\r\n--c--\r\n--b--\r\n"
		if rec := call(h, "POST", "$batch", batch, "Content-Type", "multipart/mixed; boundary=b"); rec.Code != 202 || !strings.Contains(rec.Body.String(), "InvalidInput") {
			t.Errorf("batch insert %q: %d %s", body, rec.Code, rec.Body)
		}
	}
	if n, _ := st.Count("keys"); n != 0 {
		t.Fatalf("%d entities stored from bodies that are not UTF-16 text", n)
	}
	// U+FFFD itself and a surrogate pair are text: each is its own key,
	// and what is acknowledged is what a restart brings back.
	for _, body := range []string{
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\ufffd\",\"V\":\"\\ud83d\\ude00\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"\\ud83d\\ude00\",\"V\":\"\xef\xbf\xbd\"}",
		"{\"PartitionKey\":\"p\",\"RowKey\":\"caf\xc3\xa9\",\"V\":\"\\u00e9\"}",
	} {
		if rec := call(h, "POST", "keys", body); rec.Code != 201 && rec.Code != 204 {
			t.Errorf("insert %q: %d %s", body, rec.Code, rec.Body)
		}
	}
	if n, _ := st.Count("keys"); n != 3 {
		t.Fatalf("%d entities from three distinct keys", n)
	}
	get := func(h *Handler) string {
		rec := call(h, "GET", "keys(PartitionKey='p',RowKey='%EF%BF%BD')", "")
		if rec.Code != 200 {
			t.Fatalf("get: %d %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	before := get(h)
	if !strings.Contains(before, `"V":"\ud83d\ude00"`) {
		t.Errorf("stored: %s", before)
	}
	again := restart(t, j)
	if after := get(testHandler(again)); after != before || !bytes.Equal(again.Snapshot(), st.Snapshot()) {
		t.Errorf("after a restart:\n%s\nbefore:\n%s", after, before)
	}
}
