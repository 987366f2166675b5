package play

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// signedOnly is an engine whose well-known account takes signed requests
// only, as `tableplay serve` does.
func signedOnly() *Account {
	s := NewAccounts(AccountsOptions{
		Clock: func() time.Time { return at },
		Base:  func(name string) string { return "http://h/" + name },
	})
	return s.Get(rest.WellKnownAccount)
}

// send builds an operation's request with a remote and has the account
// answer it.
func send(t *testing.T, r *Remote, a *Account, p Operation) (Request, rest.Reply) {
	t.Helper()
	req, msg := r.API.Build(p)
	if msg != "" {
		t.Fatalf("build %s: %s", p.Kind, msg)
	}
	return req, a.Handler.Serve(rest.Call{Method: req.Method, URL: req.URL, Headers: req.Headers, Body: req.Body})
}

func TestConnectSignsWithTheKey(t *testing.T) {
	a := signedOnly()
	r, err := Connect(Connection{Endpoint: "http://h/devstoreaccount1/", Key: rest.WellKnownKey}, func() time.Time { return at })
	if err != nil || r.Account != "devstoreaccount1" || r.Auth != "key" || r.Endpoint != "http://h/devstoreaccount1" {
		t.Fatalf("connect: %+v %v", r, err)
	}
	req, reply := send(t, r, a, Operation{Kind: "createTable", Table: "Remote"})
	if reply.Status != 201 || !strings.HasPrefix(req.Headers[len(req.Headers)-1][1], "SharedKeyLite devstoreaccount1:") {
		t.Fatalf("create: %d %v", reply.Status, req.Headers)
	}
	known, _ := Connect(Connection{Endpoint: "http://h/devstoreaccount1", WellKnownKey: true}, func() time.Time { return at })
	if _, reply := send(t, known, a, Operation{Kind: "listTables"}); reply.Status != 200 {
		t.Fatalf("the well-known key got %d", reply.Status)
	}
	other, _ := Connect(Connection{Endpoint: "http://h/devstoreaccount1", Key: "AAAA"}, func() time.Time { return at })
	if _, reply := send(t, other, a, Operation{Kind: "listTables"}); reply.Status != 403 {
		t.Fatalf("a wrong key got %d", reply.Status)
	}
}

func TestConnectCarriesTheSAS(t *testing.T) {
	a := signedOnly()
	s := rest.SAS{Account: true, Version: "2019-02-02", Services: "t", ResourceTypes: "sco", Permissions: "rwdlacu",
		Start: at.Add(-time.Hour).Format("2006-01-02T15:04:05Z"), Expiry: at.Add(time.Hour).Format("2006-01-02T15:04:05Z")}
	s.Signature = rest.WellKnown().SignSAS(s)
	r, err := Connect(Connection{Endpoint: "http://h/devstoreaccount1", SAS: "?" + s.Encode()}, func() time.Time { return at })
	if err != nil || r.Auth != "sas" {
		t.Fatalf("connect: %v", err)
	}
	req, reply := send(t, r, a, Operation{Kind: "createTable", Table: "Shared"})
	if reply.Status != 201 || !strings.Contains(req.URL, "sig=") {
		t.Fatalf("create: %d %s", reply.Status, req.URL)
	}
	for _, h := range req.Headers {
		if h[0] == "Authorization" {
			t.Fatalf("a SAS request carries Authorization: %v", req.Headers)
		}
	}
	e := &Draft{PartitionKey: ptr("p"), RowKey: ptr("r")}
	req, reply = send(t, r, a, Operation{Kind: "batch", Operations: []Operation{{Kind: "insert", Table: "Shared", Entity: e}}})
	if reply.Status != 202 || strings.Count(req.Body, "sig=") != 0 {
		t.Fatalf("batch: %d %s", reply.Status, reply.Body)
	}
	code := decode[map[string]any](t, r.Code(mustJSON(Operation{Kind: "listTables"}), "python"))
	if !strings.Contains(code["code"].(string), "SharedAccessSignature="+s.Encode()) {
		t.Fatalf("python code lacks the SAS: %v", code)
	}
}

func TestConnectRefusesWhatItCannotUse(t *testing.T) {
	clock := func() time.Time { return at }
	for _, c := range []Connection{
		{Endpoint: "ftp://h/a", Key: rest.WellKnownKey},
		{Endpoint: "http://h/a?sv=1", Key: rest.WellKnownKey},
		{Endpoint: "http://h", Key: rest.WellKnownKey},
		{Endpoint: "http://h/a", Key: "not base64!"},
		{Endpoint: "http://h/a", SAS: "sv=2019-02-02"},
		{Endpoint: "http://h/a", Key: rest.WellKnownKey, SAS: "sv=1&sig=x"},
		{Endpoint: "http://h/a"},
	} {
		if _, err := Connect(c, clock); err == nil {
			t.Errorf("%+v connected", c)
		}
	}
	r, err := Connect(Connection{Endpoint: "https://acct.table.core.windows.net", SAS: "sv=1&sig=x"}, clock)
	if err != nil || r.Account != "acct" {
		t.Fatalf("a storage account's name: %+v %v", r, err)
	}
}

func TestCompareMarksWhatDiffers(t *testing.T) {
	same := decode[Comparison](t, Compare([]byte(`{"endpointBase":"http://a/x","engineBase":"http://b/y",
		"endpoint":{"status":200,"headers":[["Date","1"],["Content-Type","application/json"]],"body":"{\"odata.metadata\":\"http://a/x/$metadata\",\"value\":[{\"Timestamp\":\"1\",\"A\":1}]}"},
		"engine":{"status":200,"headers":[["Date","2"],["Content-Type","application/json"]],"body":"{\"odata.metadata\":\"http://b/y/$metadata\",\"value\":[{\"Timestamp\":\"2\",\"A\":1}]}"}}`)))
	if !same.Same || len(same.Differences) != 2 {
		t.Fatalf("only expected differences: %+v", same)
	}
	conflict := `{"odata.error":{"code":"TableAlreadyExists","message":{"lang":"en-US","value":"The table specified already exists.\nRequestId:%s\nTime:%s"}}}`
	in, _ := json.Marshal(map[string]any{
		"endpoint": map[string]any{"status": 409, "body": fmt.Sprintf(conflict, "a", "2026-01-01T00:00:00.0000000Z")},
		"engine":   map[string]any{"status": 409, "body": fmt.Sprintf(conflict, "b", "2026-01-01T00:00:01.0000000Z")},
	})
	if errs := decode[Comparison](t, Compare(in)); !errs.Same || len(errs.Differences) != 1 || errs.Differences[0].Name != "odata.error.message.value" {
		t.Fatalf("two errors that differ by request id and time: %+v", errs)
	}
	// A page whose every entity is a copy (its own Timestamp) is the same.
	var ea, eb []string
	for i := range 200 {
		ea = append(ea, fmt.Sprintf(`{"RowKey":"%d","Timestamp":"1"}`, i))
		eb = append(eb, fmt.Sprintf(`{"RowKey":"%d","Timestamp":"2"}`, i))
	}
	in, _ = json.Marshal(map[string]any{
		"endpoint": map[string]any{"status": 200, "body": `{"value":[` + strings.Join(ea, ",") + `]}`},
		"engine":   map[string]any{"status": 200, "body": `{"value":[` + strings.Join(eb, ",") + `]}`},
	})
	if page := decode[Comparison](t, Compare(in)); !page.Same || len(page.Differences) != maxExpected || page.MoreExpected != 190 {
		t.Fatalf("200 copied entities: same=%v listed=%d more=%d", page.Same, len(page.Differences), page.MoreExpected)
	}
	differ := decode[Comparison](t, Compare([]byte(`{"endpoint":{"status":200,"statusText":"OK","headers":[],"body":"{\"A\":1}"},
		"engine":{"status":404,"statusText":"Not Found","headers":[],"body":"{\"odata.error\":{\"code\":\"ResourceNotFound\",\"message\":{\"value\":\"x\"}}}"}}`)))
	if differ.Same || differ.Differences[0].Part != "status" || differ.Differences[1].Engine != "ResourceNotFound" {
		t.Fatalf("status and code: %+v", differ)
	}
}
