package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// answerRecord is a ResponseWriter that keeps the answer.
type answerRecord struct {
	status int
	body   bytes.Buffer
}

func (w *answerRecord) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *answerRecord) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// unreadBody is a request body that must not be read: it fails the test.
type unreadBody struct {
	t    *testing.T
	name string
}

func (b unreadBody) Read([]byte) (int, error) {
	b.t.Errorf("%s: the body was read though the head decided the answer", b.name)
	return 0, fmt.Errorf("unread")
}

// sequenced is a handler whose clocks and request ids are sequences, with a
// table people: two of them given the same requests answer the same bytes.
func sequenced(t *testing.T, start time.Time) *rest.Handler {
	t.Helper()
	now, stored, n := start, start, 0
	st := store.New(store.Options{Clock: func() time.Time { stored = stored.Add(time.Millisecond); return stored }})
	if _, err := st.CreateTable("people"); err != nil {
		t.Fatal(err)
	}
	return rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(),
		Clock:     func() time.Time { now = now.Add(time.Millisecond); return now },
		RequestID: func() string { n++; return fmt.Sprintf("id-%d", n) }})
}

// TestHandleHeadAnswersAsHandle: a request begun on its head is answered
// with the bytes Handle answers it with; when the head decides the answer
// (an unknown account or resource, a preflight, an unsigned, badly signed
// or unauthorized request), without its body being read, and otherwise
// with nothing written until the body is given.
func TestHandleHeadAnswersAsHandle(t *testing.T) {
	start := time.Now().UTC()
	date := start.Format(http.TimeFormat)
	entity := `{"PartitionKey":"p","RowKey":"r","V":"x"}`
	readOnly := signedSAS(rest.SAS{Permissions: "r", Expiry: start.Add(time.Hour).Format("2006-01-02T15:04:05Z"), Table: "people"})
	for _, tc := range []struct {
		name, method, target string
		header               map[string]string
		sign                 bool
		body                 string
		decided              bool
		status               int
	}{
		{"unsigned insert", "POST", "/devstoreaccount1/people", nil, false, entity, true, 403},
		{"badly signed insert", "POST", "/devstoreaccount1/people", map[string]string{"Authorization": "SharedKeyLite devstoreaccount1:AAAA"}, false, entity, true, 403},
		{"read-only SAS insert", "POST", "/devstoreaccount1/people?" + readOnly, nil, false, entity, true, 403},
		{"secondary write", "POST", "/devstoreaccount1-secondary/people", nil, true, entity, true, 403},
		{"unknown account", "POST", "/other/people", nil, true, entity, true, 404},
		{"unreadable resource", "POST", "/devstoreaccount1/people(PartitionKey=", nil, true, entity, true, 400},
		{"bad version", "POST", "/devstoreaccount1/people", map[string]string{"X-Ms-Version": "1999-01-01"}, true, entity, true, 400},
		{"preflight", "OPTIONS", "/devstoreaccount1/people", map[string]string{"Origin": "http://x", "Access-Control-Request-Method": "POST"}, false, entity, true, 403},
		{"signed insert", "POST", "/devstoreaccount1/people", nil, true, entity, false, 201},
		{"signed insert of a bad body", "POST", "/devstoreaccount1/people", nil, true, `{"PartitionKey":`, false, 400},
		{"signed insert over the limit", "POST", "/devstoreaccount1/people", nil, true, strings.Repeat(" ", rest.MaxBody+1), false, 413},
	} {
		req := func() rest.Request {
			u, err := url.ParseRequestURI(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			h := rest.Header{"Accept": {"application/json;odata=nometadata"}, "Content-Type": {"application/json"}, "X-Ms-Date": {date}, "X-Ms-Version": {"2019-02-02"}}
			for k, v := range tc.header {
				h[k] = []string{v}
			}
			if tc.sign {
				h["Authorization"] = []string{rest.WellKnown().Sign(date, u)}
			}
			return rest.Request{Method: tc.method, URL: u, Host: "127.0.0.1:10002", Header: h, ContentLength: int64(len(tc.body)), RemoteAddr: "127.0.0.1:40000"}
		}
		whole := req()
		whole.Body = []byte(tc.body)
		var want answerRecord
		wantHeader := rest.Header{}
		sequenced(t, start).Handle(&want, wantHeader, whole)
		if want.status != tc.status {
			t.Errorf("%s: Handle answered %d, want %d", tc.name, want.status, tc.status)
		}

		var got answerRecord
		gotHeader := rest.Header{}
		headOnly := req()
		headOnly.Stream = unreadBody{t, tc.name}
		finish := sequenced(t, start).HandleHead(&got, gotHeader, headOnly)
		if decided := finish == nil; decided != tc.decided {
			t.Errorf("%s: decided on the head: %v, want %v", tc.name, decided, tc.decided)
			continue
		}
		if finish != nil {
			if got.status != 0 || got.body.Len() > 0 {
				t.Errorf("%s: %d and %d body bytes written before the body was given", tc.name, got.status, got.body.Len())
			}
			finish(whole)
		}
		if got.status != want.status || got.body.String() != want.body.String() || fmt.Sprint(gotHeader) != fmt.Sprint(wantHeader) {
			t.Errorf("%s: begun on the head, answered\n%d %v %s\nHandle answered\n%d %v %s", tc.name,
				got.status, gotHeader, got.body.String(), want.status, wantHeader, want.body.String())
		}
	}
}
