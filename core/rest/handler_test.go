package rest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/sas"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/wire"
)

// serve answers an httptest request through Handle, handing it over as the
// net/http adapter (core/resthttp, which this package's tests cannot
// import) does.
func serve(h Server, rec *httptest.ResponseRecorder, r *http.Request) {
	h.Handle(rec, Header(rec.Header()), Request{Method: r.Method, URL: r.URL, Host: r.Host, Header: Header(r.Header),
		Stream: r.Body, ContentLength: r.ContentLength, RemoteAddr: r.RemoteAddr, TLS: r.TLS != nil})
}

func testHandler(st *store.Store) *Handler {
	clock := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	creds := WellKnown()
	creds.AllowUnsigned = true
	creds.TrustUnsigned = true // these requests stand for signed ones
	return New(Options{Store: st, Credentials: creds, Clock: clock, RequestID: func() string { return "id" }})
}

// countingReader counts what is read from it and fails past its size.
type countingReader struct {
	n, size int
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.size {
		return 0, io.EOF
	}
	k := min(len(p), c.size-c.n)
	for i := range p[:k] {
		p[i] = ' '
	}
	c.n += k
	return k, nil
}

func TestBodyTooLarge(t *testing.T) {
	h := testHandler(store.New(store.Options{Clock: time.Now}))
	// Declared too large: refused before reading a byte.
	body := &countingReader{size: 5 << 20}
	req := httptest.NewRequest("POST", "/devstoreaccount1/Tables", body)
	req.Header.Set("Accept", "application/json")
	req.ContentLength = 5 << 20
	rec := httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), `"RequestBodyTooLarge"`) || body.n != 0 {
		t.Errorf("declared: %d %s, read %d bytes", rec.Code, rec.Body, body.n)
	}
	// Unknown length: reading stops one byte past the limit.
	body = &countingReader{size: 64 << 20}
	req = httptest.NewRequest("POST", "/devstoreaccount1/$batch", body)
	req.ContentLength = -1
	rec = httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 413 || body.n > MaxBody+1 {
		t.Errorf("streamed: %d, read %d bytes", rec.Code, body.n)
	}
}

func TestPanicBecomesInternalError(t *testing.T) {
	h := testHandler(nil) // every store call panics
	req := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	req.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"InternalError"`) ||
		!strings.Contains(rec.Body.String(), "The server encountered an internal error. Please retry the request.") {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}

func TestSignedRequestsAreVerifiedEvenWhenUnsignedAreAllowed(t *testing.T) {
	h := testHandler(store.New(store.Options{Clock: time.Now}))
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	req := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	req.Header.Set("Accept", "application/json")
	date := now.Format(http.TimeFormat)
	req.Header.Set("x-ms-date", date)
	req.Header.Set("Authorization", WellKnown().Sign(date, req.URL))
	rec := httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 200 {
		t.Fatalf("good signature: %d %s", rec.Code, rec.Body)
	}
	req.Header.Set("Authorization", "SharedKeyLite devstoreaccount1:"+base64.StdEncoding.EncodeToString(make([]byte, 32)))
	rec = httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 403 || rec.Header().Get("x-ms-error-code") != "AuthenticationFailed" || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("bad signature: %d %v", rec.Code, rec.Header())
	}
	// SharedKey (not Lite) signs the verb, Content-MD5 and Content-Type too.
	req = httptest.NewRequest("POST", "/devstoreaccount1/Tables", strings.NewReader(`{"TableName":"signed"}`))
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-ms-date", date)
	req.Header.Set("Authorization", sharedKey(t, "POST\n\napplication/json\n"+date+"\n/devstoreaccount1/devstoreaccount1/Tables"))
	rec = httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 201 {
		t.Errorf("SharedKey: %d %s", rec.Code, rec.Body)
	}
}

// sharedKey signs a string-to-sign by hand (Sign makes SharedKeyLite only).
func sharedKey(t *testing.T, sts string) string {
	t.Helper()
	m := hmac.New(sha256.New, WellKnown().Key)
	m.Write([]byte(sts))
	return "SharedKey devstoreaccount1:" + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func TestParseKeyPredicate(t *testing.T) {
	good := map[string][2]string{
		"PartitionKey='a',RowKey='b'":          {"a", "b"},
		"RowKey='b',PartitionKey='a'":          {"a", "b"},
		"PartitionKey='',RowKey=''":            {"", ""},
		"PartitionKey='O''Brien',RowKey='x,y'": {"O'Brien", "x,y"},
		"PartitionKey='a=b',RowKey=')('":       {"a=b", ")("},
	}
	for in, want := range good {
		pk, rk, ok := ParseKeyPredicate(in)
		if !ok || pk != want[0] || rk != want[1] {
			t.Errorf("%s → %q %q %v", in, pk, rk, ok)
		}
	}
	for _, in := range []string{"", "PartitionKey='a'", "PartitionKey='a',RowKey=b", "PartitionKey='a',RowKey='b',", "PartitionKey='a',PartitionKey='b'",
		"PartitionKey='a' ,RowKey='b'", "partitionkey='a',rowkey='b'", "PartitionKey='a,RowKey='b'", "PartitionKey='a',RowKey='b'x"} {
		if pk, rk, ok := ParseKeyPredicate(in); ok {
			t.Errorf("%s accepted as %q %q", in, pk, rk)
		}
	}
}

func TestParseResource(t *testing.T) {
	tests := map[string]resource{
		"":                                {kind: resService},
		"Tables":                          {kind: resTables},
		"Tables()":                        {kind: resTables},
		"Tables('MyTable')":               {kind: resTable, table: "MyTable"},
		"%24batch":                        {kind: resBatch},
		"$batch":                          {kind: resBatch},
		"t1":                              {kind: resEntities, table: "t1"},
		"t1()":                            {kind: resEntities, table: "t1"},
		"t1(PartitionKey='a',RowKey='b')": {kind: resEntity, table: "t1", pk: "a", rk: "b"},
		"t1(PartitionKey=%27a%2Fb%27,RowKey=%27%E4%BD%A0%27)": {kind: resEntity, table: "t1", pk: "a/b", rk: "你"},
	}
	for in, want := range tests {
		got, err := parseResource(in)
		if err != nil || got != want {
			t.Errorf("%s → %+v %v", in, got, err)
		}
	}
	for _, in := range []string{"t.1", "t1(", "t1(PartitionKey='a')", "Tables('x'", "%zz", "t1(x)"} {
		if _, err := parseResource(in); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
}

func TestParseAuthorization(t *testing.T) {
	sig := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32))
	if a, ok := ParseAuthorization("SharedKeyLite devstoreaccount1:" + sig); !ok || a.Scheme != "SharedKeyLite" || a.Account != "devstoreaccount1" {
		t.Errorf("%+v %v", a, ok)
	}
	for _, in := range []string{"", "Bearer x", "SharedKey", "SharedKey acct", "SharedKey :" + sig, "SharedKey acct:", "SharedKey acct:%%%", "SharedKey acct:" + base64.StdEncoding.EncodeToString([]byte("short"))} {
		if _, ok := ParseAuthorization(in); ok {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestParseBatchForms(t *testing.T) {
	lf := "--b\nContent-Type: multipart/mixed; boundary=c\n\n--c\nContent-Type: application/http\n\nPOST /devstoreaccount1/t HTTP/1.1\nContent-Type: application/json\n\n{\"PartitionKey\":\"p\",\n \"RowKey\":\"r\"}\n--c\nContent-Type: application/http\n\nDELETE t(PartitionKey='p',RowKey='q') HTTP/1.1\nIf-Match: *\n\n--c--\n--b--\n"
	env, err := ParseBatch("multipart/mixed; boundary=b", []byte(lf))
	if err == nil {
		t.Fatalf("a relative URL without a leading slash is not a request line, yet parsed: %+v", env)
	}
	lf = strings.Replace(lf, "DELETE t(", "DELETE /t(", 1)
	env, err = ParseBatch("multipart/mixed; boundary=b", []byte(lf))
	if err != nil || len(env.changeset) != 2 || string(env.changeset[0].req.Body) != "{\"PartitionKey\":\"p\",\n \"RowKey\":\"r\"}" || env.changeset[1].req.Method != "DELETE" {
		t.Fatalf("LF envelope: %v %+v", err, env)
	}
	for _, bad := range []string{"", "--b--", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "not multipart"} {
		if _, err := ParseBatch("multipart/mixed; boundary=b", []byte(bad)); !errors.Is(err, errEnvelope) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := ParseBatch("application/json", []byte(lf)); err == nil {
		t.Error("non-multipart content type accepted")
	}
	two := "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c--\r\n--b\r\nContent-Type: multipart/mixed; boundary=d\r\n\r\n--d--\r\n--b--\r\n"
	if _, err := ParseBatch("multipart/mixed; boundary=b", []byte(two)); err == nil {
		t.Error("two changesets accepted")
	}
}

func FuzzParseKeyPredicate(f *testing.F) {
	for _, s := range []string{"PartitionKey='a',RowKey='b'", "RowKey='b',PartitionKey='a'", "PartitionKey='O''Brien',RowKey=''", "PartitionKey='a'", "PartitionKey=''''',RowKey='x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pk, rk, ok := ParseKeyPredicate(s)
		if !ok {
			return
		}
		// Re-quoting what was read reads back the same keys.
		q := "PartitionKey='" + strings.ReplaceAll(pk, "'", "''") + "',RowKey='" + strings.ReplaceAll(rk, "'", "''") + "'"
		pk2, rk2, ok2 := ParseKeyPredicate(q)
		if !ok2 || pk2 != pk || rk2 != rk {
			t.Fatalf("%q → %q,%q → %q → %q,%q %v", s, pk, rk, q, pk2, rk2, ok2)
		}
	})
}

func FuzzParseBatch(f *testing.F) {
	f.Add("multipart/mixed; boundary=b", "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST http://h/devstoreaccount1/t HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}\r\n--c--\r\n--b--\r\n")
	f.Add("multipart/mixed; boundary=b", "--b\nContent-Type: multipart/mixed; boundary=c\n\n--c--\n--b--")
	f.Add("multipart/mixed; boundary=b", "--b\r\nContent-Type: application/http\r\n\r\nGET /t(PartitionKey='a',RowKey='b') HTTP/1.1\r\n\r\n--b--\r\n")
	f.Fuzz(func(t *testing.T, ct, body string) {
		env, err := ParseBatch(ct, []byte(body))
		if err != nil {
			return
		}
		// What parsed is one envelope delimited by the declared boundary.
		_, params, _ := mime.ParseMediaType(ct)
		if !strings.Contains(body, "--"+params["boundary"]) {
			t.Fatalf("parsed without its boundary %q", params["boundary"])
		}
		// Either one GET outside a changeset or one changeset, never both.
		if env.get != nil && (len(env.changeset) > 0 || env.get.req.URL == nil || env.get.req.Method != http.MethodGet) {
			t.Fatalf("a lone part that is not a single GET: %+v", env)
		}
		if len(env.changeset) > maxBatchParts {
			t.Fatalf("%d parts, over the bound", len(env.changeset))
		}
		for _, p := range env.changeset {
			if p.req.URL == nil || p.req.Method == "" || len(p.req.Body) > MaxBody {
				t.Fatalf("bad part %+v", p)
			}
			// A part's body text, when it has one, is its body: the entity
			// decoder reads that text instead of the bytes.
			if p.req.Text != "" && p.req.Text != string(p.req.Body) {
				t.Fatalf("part text %q, body %q", p.req.Text, p.req.Body)
			}
		}
		// Parsing is a function of its input.
		again, err := ParseBatch(ct, []byte(body))
		if err != nil || len(again.changeset) != len(env.changeset) || (again.get == nil) != (env.get == nil) {
			t.Fatal("a second parse differs")
		}
		for i, p := range env.changeset {
			q := again.changeset[i]
			if q.req.Method != p.req.Method || q.req.URL.String() != p.req.URL.String() || !bytes.Equal(q.req.Body, p.req.Body) || q.contentID != p.contentID {
				t.Fatalf("part %d differs on a second parse", i)
			}
		}
	})
}

func FuzzParseAuthorization(f *testing.F) {
	f.Add("SharedKeyLite devstoreaccount1:" + base64.StdEncoding.EncodeToString(make([]byte, 32)))
	f.Add("SharedKey a:b")
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := ParseAuthorization(s)
		if ok && (len(a.Signature) != 32 || a.Account == "" || (a.Scheme != "SharedKey" && a.Scheme != "SharedKeyLite")) {
			t.Fatalf("accepted %q as %+v", s, a)
		}
	})
}

func FuzzParseSAS(f *testing.F) {
	f.Add("sv=2019-02-02&sp=r&se=2030-01-01T00%3A00%3A00Z&tn=t&sig=abc%3D")
	f.Add("sv=2019-02-02&ss=t&srt=sco&sp=rwdlau&se=2030-01-01&spr=https%2Chttp&sig=x")
	f.Add("sv=2015-04-05&tn=t&spk=a&srk=1&epk=b&erk=9&si=policy&sip=127.0.0.1-127.0.0.9&sig=y")
	f.Add("sig=")
	f.Fuzz(func(t *testing.T, raw string) {
		q, ok := wire.ParseQuery(raw)
		if !ok {
			return
		}
		s, present, err := sas.Parse(q)
		if !present || err != nil {
			return
		}
		// What was read encodes and reads back to the same signature.
		again, _ := wire.ParseQuery(s.Encode())
		s2, present2, err2 := sas.Parse(again)
		if !present2 || err2 != nil || s2 != s {
			t.Fatalf("%q → %+v → %q → %+v %v", raw, s, s.Encode(), s2, err2)
		}
		_ = WellKnown().SignSAS(s) // signing any parsed SAS never panics
	})
}

// TestBatchPartBodyAsText: a part's body reaches the entity decoder as text
// cut from the envelope's (no copy), trimmed as its bytes are; FuzzParseBatch
// checks that the two always agree.
func TestBatchPartBodyAsText(t *testing.T) {
	body := "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\n" +
		"POST http://h/devstoreaccount1/t HTTP/1.1\r\nContent-Type: application/json\r\n\r\n \t{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}\r\n\r\n--c--\r\n--b--\r\n"
	env, err := ParseBatch("multipart/mixed; boundary=b", []byte(body))
	if err != nil || len(env.changeset) != 1 {
		t.Fatalf("%v, %+v", err, env)
	}
	p := env.changeset[0].req
	if want := `{"PartitionKey":"p","RowKey":"r"}`; p.Text != want || string(p.Body) != want {
		t.Fatalf("text %q, body %q", p.Text, p.Body)
	}
}
