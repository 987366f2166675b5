package play

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/web/locales"
)

var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newAPI(base string) *API {
	return &API{Base: base, Clock: func() time.Time { return at }, Creds: rest.WellKnown(), Locale: locales.English()}
}

func ptr(s string) *string { return &s }

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestValidateTableName(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[TableNameReport](t, a.ValidateTableName("ab"))
	if r.Valid || len(r.Violations) != 1 {
		t.Fatalf("%+v", r)
	}
	c := r.Violations[0]
	if c.Code != "OutOfRangeInput" || c.Status != 400 || c.Rule.ID != "table-name-too-short" || c.Rule.Measure.Value != 2 || c.Rule.Measure.Limit != 3 || c.Rule.DocURL == "" || c.Rule.Statement == "" {
		t.Errorf("card %+v %+v", c, c.Rule)
	}
	if r := decode[TableNameReport](t, a.ValidateTableName("Customers")); !r.Valid || len(r.Violations) != 0 {
		t.Errorf("valid name: %+v", r)
	}
	raw := string(a.ValidateTableName("tables"))
	if !strings.Contains(raw, `"disputed":true`) || !strings.Contains(raw, `"id":"table-name-reserved"`) {
		t.Errorf("reserved: %s", raw)
	}
}

func TestValidateEntity(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	draft := Draft{PartitionKey: ptr("p"), RowKey: ptr("a/b"), Properties: []Row{
		{Name: "Big", Type: "Edm.Int64", Text: "9223372036854775808"},
		{Name: "Text", Type: "String", Text: strings.Repeat("x", 32768)},
		{Name: "bad-name", Type: "Int32", Text: "1"},
		{Name: "When", Type: "DateTime", Text: "1500-01-01T00:00:00Z"},
		{Name: "Kind", Type: "Edm.Decimal", Text: "1"},
	}}
	r := decode[EntityReport](t, a.ValidateEntity(mustJSON(draft)))
	var got []string
	for _, c := range r.Violations {
		got = append(got, c.Code+"/"+c.Rule.ID)
	}
	want := "OutOfRangeInput/key-characters,PropertyNameInvalid/property-name-invalid,InvalidInput/value-invalid,OutOfRangeInput/datetime-out-of-range,InvalidInput/type-unknown,PropertyValueTooLarge/string-too-long"
	if strings.Join(got, ",") != want {
		t.Errorf("violations\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	if r.Valid || r.SizeLimit != 1048576 || r.CountLimit != 255 {
		t.Errorf("%+v", r)
	}
	// The Int64 overflow carries the live service's generic message.
	if r.Violations[2].Message != "An error occurred while processing this request." {
		t.Errorf("overflow message %q", r.Violations[2].Message)
	}
	ok := Draft{PartitionKey: ptr("p"), RowKey: ptr("r"), Properties: []Row{{Name: "Age", Type: "Int32", Text: "36"}, {Name: "Name", Text: "Ada"}}}
	r = decode[EntityReport](t, a.ValidateEntity(mustJSON(ok)))
	// 4 + 2×2 + (8 + 6 + 4) + (8 + 8 + 10) = 52
	if !r.Valid || r.Size != 52 || r.Count != 5 {
		t.Errorf("valid draft: %+v", r)
	}
	if r := decode[EntityReport](t, a.ValidateEntity([]byte(`{"properties":[]}`))); r.Valid || r.Violations[0].Code != "PropertiesNeedValue" {
		t.Errorf("no keys: %+v", r)
	}
	if !strings.Contains(string(a.ValidateEntity([]byte(`{`))), `"error"`) {
		t.Error("unreadable draft")
	}
}

func TestPreviewMatchesTheEngine(t *testing.T) {
	st := store.New(store.Options{Clock: func() time.Time { return at }})
	creds := rest.WellKnown()
	srv := httptest.NewServer(resthttp.New(rest.New(rest.Options{Store: st, Credentials: creds, Clock: time.Now})))
	defer srv.Close()
	a := newAPI(srv.URL + "/devstoreaccount1")
	a.Clock = time.Now
	send := func(op Operation) *http.Response {
		t.Helper()
		r := decode[Request](t, a.RequestFor(mustJSON(op)))
		if r.Error != "" {
			t.Fatalf("%s: %s", op.Kind, r.Error)
		}
		req, _ := http.NewRequest(r.Method, r.URL, strings.NewReader(r.Body))
		for _, h := range r.Headers {
			req.Header.Set(h[0], h[1])
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	draft := &Draft{PartitionKey: ptr("p'1"), RowKey: ptr("r 1"), Properties: []Row{
		{Name: "Visits", Type: "Int64", Text: "9876543210"}, {Name: "When", Type: "DateTime", Text: "2021-06-09T01:17:13.2924321Z"},
		{Name: "Id", Type: "Guid", Text: "c9da6455-213d-42c9-9a79-3e9149a57833"}, {Name: "Pic", Type: "Binary", Text: "QmFy"},
		{Name: "Whole", Type: "Double", Text: "2"}, {Name: "Half", Type: "Double", Text: "0.5"}, {Name: "On", Type: "Boolean", Text: "true"},
	}}
	for _, step := range []struct {
		op     Operation
		status int
	}{
		{Operation{Kind: "createTable", Table: "preview"}, 201},
		{Operation{Kind: "getTable", Table: "preview"}, 200},
		{Operation{Kind: "insert", Table: "preview", Entity: draft}, 201},
		{Operation{Kind: "get", Table: "preview", Entity: draft}, 200},
		{Operation{Kind: "merge", Table: "preview", Entity: draft}, 204},
		{Operation{Kind: "replace", Table: "preview", Entity: draft, IfMatch: `W/"datetime'2000-01-01T00%3A00%3A00Z'"`}, 412},
		{Operation{Kind: "insertOrReplace", Table: "preview", Entity: draft}, 204},
		{Operation{Kind: "insertOrMerge", Table: "preview", Entity: draft}, 204},
		{Operation{Kind: "query", Table: "preview", Filter: ptr("PartitionKey eq 'p''1'"), Select: ptr("Visits"), Top: 5}, 200},
		{Operation{Kind: "listTables", Filter: ptr("TableName eq 'preview'")}, 200},
		{Operation{Kind: "delete", Table: "preview", Entity: draft}, 204},
		{Operation{Kind: "deleteTable", Table: "preview"}, 204},
	} {
		resp := send(step.op)
		if resp.StatusCode != step.status {
			t.Errorf("%s: %d, want %d", step.op.Kind, resp.StatusCode, step.status)
		}
	}
	// The SDK writes an integral double as 2: the engine stores an Int32.
	body := decode[Request](t, a.RequestFor(mustJSON(Operation{Kind: "insert", Table: "t", Entity: draft}))).Body
	if !strings.Contains(body, `"Whole":2}`) || !strings.Contains(body, `"Visits":"9876543210","Visits@odata.type":"Edm.Int64"`) {
		t.Errorf("SDK body %s", body)
	}
	p := decode[Preview](t, newAPI("http://h/devstoreaccount1").PreviewEntity(mustJSON(draft), "preview", ""))
	if !p.Valid || len(p.Responses) != 3 || p.Request != body {
		t.Fatalf("%+v", p)
	}
	if !strings.Contains(p.Responses["fullmetadata"], `"odata.id":"http://h/devstoreaccount1/preview(PartitionKey='p''1',RowKey='r%201')"`) ||
		!strings.Contains(p.Responses["minimalmetadata"], `"Visits@odata.type":"Edm.Int64","Visits":"9876543210"`) ||
		strings.Contains(p.Responses["nometadata"], "odata") {
		t.Errorf("responses %v", p.Responses)
	}
	bad := decode[Preview](t, a.PreviewEntity([]byte(`{"PartitionKey":"p","properties":[]}`), "t", "minimalmetadata"))
	if bad.Valid || bad.Violations[0].Code != "PropertiesNeedValue" {
		t.Errorf("invalid preview: %+v", bad)
	}
}

func TestExplainFilter(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	e := decode[Explanation](t, a.ExplainFilter("'p' eq PartitionKey and RowKey ge 'a' and Age gt 5", ""))
	if !e.Valid || e.Canonical != "PartitionKey eq 'p' and RowKey ge 'a' and Age gt 5" || e.Position != -1 ||
		*e.KeyRange.PartitionKey.From != "p" || *e.KeyRange.RowKey.From != "a" || e.KeyRange.RowKey.To != nil || len(e.Properties) != 3 {
		t.Errorf("%+v", e)
	}
	e = decode[Explanation](t, a.ExplainFilter("aaa bbb ccc", ""))
	if e.Valid || e.Position != 7 || e.Error.Message != "Syntax error at position 7 in 'aaa bbb ccc'." {
		t.Errorf("%+v", e)
	}
	e = decode[Explanation](t, a.ExplainFilter("1 eq 1", ""))
	if e.Valid || e.Position != -1 || e.Error.Code != "NotImplemented" || e.Error.Status != 501 {
		t.Errorf("%+v", e)
	}
}

func TestRequestForShape(t *testing.T) {
	a := newAPI("http://127.0.0.1:10002/devstoreaccount1")
	r := decode[Request](t, a.RequestFor([]byte(`{"kind":"query","table":"t","filter":"PartitionKey eq 'a b'","top":2,"level":"nometadata"}`)))
	if r.Method != "GET" || r.URL != "http://127.0.0.1:10002/devstoreaccount1/t()?%24filter=PartitionKey+eq+%27a+b%27&%24format=application%2Fjson%3Bodata%3Dnometadata&%24top=2" {
		t.Errorf("%s %s", r.Method, r.URL)
	}
	names := []string{}
	for _, h := range r.Headers {
		names = append(names, h[0])
	}
	if strings.Join(names, ",") != "Accept,DataServiceVersion,x-ms-version,x-ms-date,Authorization" || r.Headers[3][1] != "Sun, 22 Nov 2026 12:00:00 GMT" ||
		!strings.HasPrefix(r.Headers[4][1], "SharedKeyLite devstoreaccount1:") {
		t.Errorf("headers %v", r.Headers)
	}
	for _, bad := range []string{`{"kind":"nope"}`, `{"kind":"insert","table":"t"}`, `{"kind":"get","table":"t"}`, `{"kind":"query","table":"t","level":"verbose"}`,
		`{"kind":"insert","table":"t","entity":{"PartitionKey":"p","properties":[]}}`} {
		if r := decode[Request](t, a.RequestFor([]byte(bad))); r.Error == "" {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Rule cards name the fidelity notes they cite in words, not by id alone.
func TestCardsNameDecisions(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[EntityReport](t, a.ValidateEntity([]byte(`{"PartitionKey":"a/b","RowKey":"r","properties":[]}`)))
	c := r.Violations[0]
	if c.Rule.Detail != "'/' at character 2 (counting from 1)" {
		t.Errorf("detail %q", c.Rule.Detail)
	}
	if len(c.Decisions) != 1 || c.Decisions[0].ID != "F-KEY-CHARACTERS" || c.Decisions[0].Title != "forbidden characters in keys" ||
		!strings.Contains(c.Rule.Dispute, "(see the fidelity note “forbidden characters in keys”, F-KEY-CHARACTERS, confidence medium)") {
		t.Errorf("%+v %s", c.Decisions, c.Rule.Dispute)
	}
	// The shared rule is not rewritten: a second card reads the same.
	r2 := decode[EntityReport](t, a.ValidateEntity([]byte(`{"PartitionKey":"a/b","RowKey":"r","properties":[]}`)))
	if r2.Violations[0].Rule.Dispute != c.Rule.Dispute {
		t.Errorf("second card: %s", r2.Violations[0].Rule.Dispute)
	}
}

// The meters keep measuring while a key is missing or bad.
func TestMetersWhileInvalid(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[EntityReport](t, a.ValidateEntity([]byte(`{"PartitionKey":"pp","properties":[{"name":"Name","type":"Edm.String","text":"Ada"}]}`)))
	// 4 + 2×2 (PartitionKey) + 8 + 2×4 + 4 + 2×3
	if r.Valid || r.Size != 34 || r.Count != 4 {
		t.Errorf("size %d count %d", r.Size, r.Count)
	}
}
