package store

import (
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

func TestTables(t *testing.T) {
	s := newStore(t)
	if name, err := s.CreateTable("MyTable"); err != nil || name != "MyTable" {
		t.Fatalf("create: %q %v", name, err)
	}
	if _, err := s.CreateTable("mytable"); code(err) != tableerr.TableAlreadyExists || err.Status != 409 {
		t.Errorf("duplicate in other case: %v", err)
	}
	if name, err := s.GetTable("MYTABLE"); err != nil || name != "MyTable" {
		t.Errorf("get keeps stored case: %q %v", name, err)
	}
	for _, bad := range []string{"ab", "1abc", "tables"} {
		if _, err := s.CreateTable(bad); err == nil {
			t.Errorf("created %q", bad)
		}
	}
	if _, err := s.GetTable("nope"); code(err) != tableerr.ResourceNotFound {
		t.Errorf("get missing: %v", err)
	}
	if err := s.DeleteTable("nope"); code(err) != tableerr.ResourceNotFound {
		t.Errorf("delete missing: %v", err)
	}
	if _, err := s.Apply("nope", Op{Kind: Insert, Entity: ent("p", "r")}); code(err) != tableerr.TableNotFound {
		t.Errorf("insert into missing table: %v", err)
	}
	if _, err := s.Query("nope", Query{}); code(err) != tableerr.TableNotFound {
		t.Errorf("query missing table: %v", err)
	}
	if _, err := s.Get("nope", "p", "r"); code(err) != tableerr.TableNotFound {
		t.Errorf("get entity of missing table: %v", err)
	}
	if err := s.DeleteTable("mYtAbLe"); err != nil {
		t.Errorf("delete: %v", err)
	}
	if _, err := s.GetTable("MyTable"); err == nil {
		t.Error("table survived delete")
	}
}

func TestListTables(t *testing.T) {
	s := newStore(t, "delta", "Alpha", "charlie", "Bravo", "echo")
	p, err := s.ListTables(TableQuery{})
	if err != nil || strings.Join(p.Names, ",") != "Alpha,Bravo,charlie,delta,echo" || p.NextTableName != "" {
		t.Fatalf("list: %v %+v", err, p)
	}
	p, _ = s.ListTables(TableQuery{Top: 2})
	if strings.Join(p.Names, ",") != "Alpha,Bravo" || !strings.HasPrefix(p.NextTableName, "1!") {
		t.Fatalf("page 1: %+v", p)
	}
	if name, ok := decodeTableToken(p.NextTableName); !ok || name != "charlie" {
		t.Errorf("token names %q", name)
	}
	p, _ = s.ListTables(TableQuery{Top: 2, NextTableName: p.NextTableName})
	if strings.Join(p.Names, ",") != "charlie,delta" {
		t.Fatalf("page 2: %+v", p)
	}
	p, _ = s.ListTables(TableQuery{Top: 2, NextTableName: p.NextTableName})
	if strings.Join(p.Names, ",") != "echo" || p.NextTableName != "" {
		t.Fatalf("page 3: %+v", p)
	}
	// F-CONTINUATION-LOOKAHEAD: exactly top matches → no continuation.
	p, _ = s.ListTables(TableQuery{Top: 5})
	if len(p.Names) != 5 || p.NextTableName != "" {
		t.Errorf("exact page: %+v", p)
	}
	p, err = s.ListTables(TableQuery{Filter: mustFilter(t, "TableName ge 'b' and TableName lt 'd'")})
	if err != nil || strings.Join(p.Names, ",") != "charlie" {
		t.Errorf("filter is ordinal (Bravo < b): %v %+v", err, p)
	}
	if _, err := s.ListTables(TableQuery{Filter: mustFilter(t, "Name eq 'x'")}); code(err) != tableerr.InternalError {
		t.Errorf("filter on another property: %v", err)
	}
	if _, err := s.ListTables(TableQuery{NextTableName: "1!3!%%%"}); code(err) != tableerr.InvalidInput {
		t.Errorf("bad token: %v", err)
	}
	// A token naming a deleted table still works (live).
	p, _ = s.ListTables(TableQuery{Top: 2})
	if err := s.DeleteTable("charlie"); err != nil {
		t.Fatal(err)
	}
	p, _ = s.ListTables(TableQuery{Top: 2, NextTableName: p.NextTableName})
	if strings.Join(p.Names, ",") != "delta,echo" {
		t.Errorf("after delete: %+v", p)
	}
}

func TestTokens(t *testing.T) {
	for key, want := range map[string]string{"13": "1!4!MTM-", "listEntitiesTest": "1!24!bGlzdEVudGl0aWVzVGVzdA--", "pk801016e8": "1!16!cGs4MDEwMTZlOA--", "": "1!0!"} {
		if got := EncodeToken(key); got != want {
			t.Errorf("EncodeToken(%q) = %q, want %q", key, got, want)
		}
		if back, ok := DecodeToken(want); !ok || back != key {
			t.Errorf("DecodeToken(%q) = %q, %v", want, back, ok)
		}
	}
	if back, ok := DecodeToken("MTM-"); !ok || back != "13" {
		t.Errorf("bare payload: %q %v", back, ok)
	}
	for _, bad := range []string{"1!5!MTM-", "1!x!MTM-", "1!", "1!4!M%M-"} {
		if _, ok := DecodeToken(bad); ok {
			t.Errorf("DecodeToken(%q) accepted", bad)
		}
	}
	// The live NextTableName token: lower-cased name, 0x01, 16 hex digits.
	if name, ok := decodeTableToken("1!40!dGFibGUzNTg2MTlkMgEwMWQzNTljZGFiMWI3OTg1"); !ok || name != "table358619d2" {
		t.Errorf("live table token → %q %v", name, ok)
	}
	tok := encodeTableToken("table358619d2", 0x01d359cdab1b7985+504911232000000000)
	if tok != "1!40!dGFibGUzNTg2MTlkMgEwMWQzNTljZGFiMWI3OTg1" {
		t.Errorf("table token %s", tok)
	}
}
