package codegen_test

import (
	"go/format"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/codegen"
)

// TestTargetAndCreateTable: code for an embed names the endpoint and
// account it is given (the comment says where it runs) and creates the
// table it uses first, in every language; without options it names the
// emulator, an insert still creates its table (it must run on a fresh
// server) and a read creates nothing; KeepTable leaves the table alone.
func TestTargetAndCreateTable(t *testing.T) {
	d := small("p", "r", "1")
	insert := typed(t, pageOp{Kind: "insert", Table: "Devices", Entity: &d})
	create := map[string]string{
		codegen.Go:         `re.ErrorCode != string(aztables.TableAlreadyExists)`,
		codegen.JavaScript: "await client.createTable();",
		codegen.Python:     `service.create_table_if_not_exists("Devices")`,
		codegen.CSharp:     "client.CreateIfNotExists();",
		codegen.Curl:       `-X POST "$BASE"'/Tables?'"$SAS"`,
	}
	get := typed(t, pageOp{Kind: "get", Table: "Devices", Entity: &draft{PartitionKey: sp("p"), RowKey: sp("r")}})
	for lang, line := range create {
		plain, err := codegen.For(insert.op, lang, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plain.Code, line) || !strings.Contains(plain.Code, "the local emulator: `tableplay serve`") {
			t.Errorf("%s insert without options does not create its table:\n%s", lang, plain.Code)
		}
		kept, _ := codegen.For(insert.op, lang, codegen.Options{KeepTable: true})
		read, _ := codegen.For(get.op, lang, codegen.Options{})
		for what, s := range map[string]codegen.Snippet{"KeepTable": kept, "a read": read} {
			if strings.Contains(s.Code, line) {
				t.Errorf("%s, %s: creates the table:\n%s", lang, what, s.Code)
			}
		}
		if lang == codegen.Curl {
			continue
		}
		opt := codegen.Options{Endpoint: "https://sandbox.example.org/docs1", Account: "docs1", CreateTable: true}
		s, err := codegen.For(insert.op, lang, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{line, "Runs against https://sandbox.example.org/docs1.", "AccountName=docs1;", "TableEndpoint=https://sandbox.example.org/docs1;"} {
			if !strings.Contains(s.Code, want) {
				t.Errorf("%s: no %q in\n%s", lang, want, s.Code)
			}
		}
		if strings.Contains(s.Code, "127.0.0.1:10002") {
			t.Errorf("%s: still names the emulator:\n%s", lang, s.Code)
		}
		if lang == codegen.Go {
			if formatted, err := format.Source([]byte(s.Code)); err != nil || string(formatted) != s.Code {
				t.Errorf("generated Go is not gofmt-ed (%v):\n%s", err, s.Code)
			}
		}
	}
	// A table's own operations do not create it first.
	del := typed(t, pageOp{Kind: "deleteTable", Table: "Devices"})
	s, _ := codegen.For(del.op, codegen.Go, codegen.Options{CreateTable: true})
	if strings.Contains(s.Code, "created first") {
		t.Errorf("deleteTable creates its table first:\n%s", s.Code)
	}
}
