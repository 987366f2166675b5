package profile

import (
	"reflect"
	"testing"
)

func TestAzuriteByName(t *testing.T) {
	p, ok := ByName("azurite-3.37")
	if !ok || p.Name != "azurite-3.37" || p.Emulator.Server == "" {
		t.Fatalf("ByName(azurite-3.37) = %+v, %v", p, ok)
	}
	if p.IsAzure() {
		t.Fatal("azurite-3.37 is taken for azure")
	}
	if !reflect.DeepEqual(Azure().Emulator, Emulator{}) || !reflect.DeepEqual(Cosmos().Emulator, Emulator{}) {
		t.Fatal("an emulator difference leaks into azure or cosmos")
	}
	a := Azure()
	if a.Emulator.BodyForms() || !p.Emulator.BodyForms() {
		t.Fatal("BodyForms disagrees with the profiles")
	}
}

func TestAzuriteRewrite(t *testing.T) {
	e := Azurite337().Emulator
	for _, c := range []struct {
		rule, code, message string
		want                bool
		wantCode            string
	}{
		{"table-name-characters", "InvalidResourceName", "The specifed resource name contains invalid characters.", true, ""},
		{"table-name-reserved", "InvalidInput", "One of the request inputs is not valid.", true, ""},
		{"", "InvalidInput", "Syntax error at position 7 in 'aaa bbb ccc'.", true, "InvalidInput"},
		{"", "InvalidInput", "One of the request inputs is not valid.", false, ""},
		{"", "ResourceNotFound", "The specified resource does not exist.", false, ""},
	} {
		r, ok := e.Rewrite(c.rule, c.code, c.message)
		if ok != c.want || ok && r.Code != c.wantCode {
			t.Errorf("Rewrite(%q, %q, %q) = %+v, %v", c.rule, c.code, c.message, r, ok)
		}
	}
	if _, ok := (&Emulator{}).Rewrite("table-name-characters", "InvalidResourceName", ""); ok {
		t.Error("the zero Emulator rewrites an error")
	}
}
