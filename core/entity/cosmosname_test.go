package entity

import (
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/profile"
)

// TestCosmosTableNameRule: Cosmos's rule (F-COSMOS-TABLE-NAMES) takes 1 to
// 254 characters without / \ # ? or a trailing space, counted in
// characters; a request on a name of the wrong length is not refused for
// it, one with a forbidden character is.
func TestCosmosTableNameRule(t *testing.T) {
	cosmos := profile.CosmosTableNames
	for _, ok := range []string{"my_table", "啊齄丂狛狜", "x", "1table", "tables", " lead", strings.Repeat("啊", 254)} {
		if err := CheckTableNameBy(cosmos, ok); err != nil {
			t.Errorf("cosmos refuses %q: %v", ok, err)
		}
	}
	for name, rule := range map[string]string{
		"": "table-name-too-short", strings.Repeat("a", 255): "table-name-too-long",
		"a/b": "table-name-characters", `a\b`: "table-name-characters", "a#b": "table-name-characters",
		"a?b": "table-name-characters", "end ": "table-name-characters",
	} {
		err := CheckTableNameBy(cosmos, name)
		if err == nil || err.Status != 400 || err.Rule == nil || err.Rule.ID != rule {
			t.Errorf("cosmos %q: %v, want 400 %s", name, err, rule)
		}
	}
	if err := CheckRequestTableName(cosmos, strings.Repeat("a", 255)); err != nil {
		t.Errorf("a request on a long name is refused for its length: %v", err)
	}
	if err := CheckRequestTableName(cosmos, "a#b"); err == nil {
		t.Error("a request on a#b is not refused")
	}
	// Storage's rule is unchanged.
	for _, name := range []string{"my_table", "啊齄丂狛狜"} {
		if CheckTableNameBy(profile.StorageTableNames, name) == nil || CheckRequestTableName(profile.StorageTableNames, name) == nil {
			t.Errorf("storage takes %q", name)
		}
	}
}
