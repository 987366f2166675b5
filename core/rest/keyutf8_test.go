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
// are refused now (F-KEY-UTF8), on every path that takes a URL key; bodies'
// bytes that are not UTF-8 and lone surrogate escapes are read as U+FFFD, and
// what is acknowledged is what a restart brings back.
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

	// Bodies: invalid bytes and lone surrogate escapes are U+FFFD, in the
	// answer as in the store and after a restart.
	for _, body := range []string{
		"{\"PartitionKey\":\"caf\xe9\",\"RowKey\":\"\\ud800\",\"V\":\"x\\udc00y\",\"W\":\"\xc0\x80\"}",
		"{\"PartitionKey\":\"caf\xe8\",\"RowKey\":\"\\ud800\",\"V\":\"x\\udc00y\",\"W\":\"\xc0\x80\"}",
	} {
		rec := call(h, "POST", "keys", body, "Prefer", "return-content")
		if rec.Code != 201 || !strings.Contains(rec.Body.String(), `"PartitionKey":"caf\ufffd","RowKey":"\ufffd"`) {
			t.Errorf("insert %q: %d %s", body, rec.Code, rec.Body)
		}
		call(h, "DELETE", "keys(PartitionKey='caf%EF%BF%BD',RowKey='%EF%BF%BD')", "", "If-Match", "*")
	}
	if rec := call(h, "PUT", "keys(PartitionKey='caf%EF%BF%BD',RowKey='%EF%BF%BD')", "{\"V\":\"x\\udc00y\",\"W\":\"\xc0\x80\",\"X\":\"\\ud83d\\ude00\"}"); rec.Code != 204 {
		t.Fatalf("upsert: %d %s", rec.Code, rec.Body)
	}
	get := func(h *Handler) string {
		rec := call(h, "GET", "keys(PartitionKey='caf%EF%BF%BD',RowKey='%EF%BF%BD')", "")
		if rec.Code != 200 {
			t.Fatalf("get: %d %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	before := get(h)
	if !strings.Contains(before, `"V":"x\ufffdy","W":"\ufffd","X":"\ud83d\ude00"`) {
		t.Errorf("stored: %s", before)
	}
	again := restart(t, j)
	if after := get(testHandler(again)); after != before || !bytes.Equal(again.Snapshot(), st.Snapshot()) {
		t.Errorf("after a restart:\n%s\nbefore:\n%s", after, before)
	}
}
