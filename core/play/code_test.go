package play

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCodeForTarget: an embed's target (endpoint, account, the table
// created first) reaches the generated code; an empty one leaves the
// emulator's defaults and the table alone; the page's own code (CodeFor)
// creates an insert's table, so that it runs on a fresh server.
func TestCodeForTarget(t *testing.T) {
	a := newAPI("http://127.0.0.1:10002/devstoreaccount1")
	op := []byte(`{"kind":"insert","table":"Docs","entity":{"PartitionKey":"p","RowKey":"r","properties":[]}}`)
	var s struct{ Code, Error string }
	if err := json.Unmarshal(a.CodeForTarget(op, "javascript", "https://sandbox.example.org/docs1", "docs1", true), &s); err != nil || s.Error != "" {
		t.Fatal(err, s.Error)
	}
	for _, want := range []string{"// Runs against https://sandbox.example.org/docs1.", "AccountName=docs1;", "await client.createTable();"} {
		if !strings.Contains(s.Code, want) {
			t.Errorf("no %q in\n%s", want, s.Code)
		}
	}
	json.Unmarshal(a.CodeForTarget(op, "javascript", "", "", false), &s)
	if !strings.Contains(s.Code, "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;") || strings.Contains(s.Code, "createTable") {
		t.Errorf("an empty target:\n%s", s.Code)
	}
	json.Unmarshal(a.CodeFor(op, "javascript", ""), &s)
	if !strings.Contains(s.Code, "await client.createTable();") {
		t.Errorf("the page's insert does not create its table:\n%s", s.Code)
	}
}
