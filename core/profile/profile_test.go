package profile

import (
	"slices"
	"testing"
)

func TestByNameAndNames(t *testing.T) {
	names := Names()
	if len(names) == 0 || names[0] != "azure" {
		t.Fatalf("Names() = %v, want azure first", names)
	}
	for _, n := range names {
		p, ok := ByName(n)
		if !ok || p.Name != n {
			t.Errorf("ByName(%q) = %+v, %v", n, p, ok)
		}
	}
	if !slices.Contains(names, "cosmos") {
		t.Errorf("Names() = %v lacks cosmos", names)
	}
	if _, ok := ByName("Azure "); ok {
		t.Error("ByName accepted a name it does not hold")
	}
}

func TestAzureIsTheZeroDifference(t *testing.T) {
	a := Azure()
	if a.CaseSensitiveTableNames || a.Order != KeyOrder || a.MaxRowKeyBytes != 0 || a.Reserved != nil || a.MaxBatchBytes != 0 ||
		a.Lacks != 0 || a.Errors != StorageErrors || a.Bodies != StorageBodies || a.Headers != StorageHeaders || a.Tokens != StorageTokens {
		t.Fatalf("Azure() changes something: %+v", a)
	}
	if !Default().IsAzure() || Cosmos().IsAzure() {
		t.Fatal("IsAzure disagrees with the profiles")
	}
}

func TestEndpointsHas(t *testing.T) {
	c := Cosmos()
	if !c.Lacks.Has(TableACL) || !c.Lacks.Has(TableACL|ServiceStats) || Azure().Lacks.Has(CORS) {
		t.Fatalf("Lacks = %b", c.Lacks)
	}
}

// TestTableNameRules: Cosmos has its own table-name rule
// (F-COSMOS-TABLE-NAMES); Azure and Azurite keep Storage's.
func TestTableNameRules(t *testing.T) {
	for _, c := range []struct {
		p    Profile
		want TableNameRule
	}{{Azure(), StorageTableNames}, {Azurite337(), StorageTableNames}, {Cosmos(), CosmosTableNames}} {
		if c.p.TableNames != c.want {
			t.Errorf("%s: TableNames %d, want %d", c.p.Name, c.p.TableNames, c.want)
		}
	}
}
