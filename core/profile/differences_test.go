package profile

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestDifferencesCiteFidelity holds every difference to an entry of
// docs/fidelity.md and a profile ByName knows, with words to show.
func TestDifferencesCiteFidelity(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fidelity.md")
	if err != nil {
		t.Fatal(err)
	}
	ds := Differences()
	if len(ds) < 5 {
		t.Fatalf("%d differences, want at least 5", len(ds))
	}
	for _, d := range ds {
		if !strings.Contains(string(doc), "### "+d.ID+" ") {
			t.Errorf("%s is not an entry of docs/fidelity.md", d.ID)
		}
		if !slices.Contains(Names(), d.Profile) || d.Profile == "azure" {
			t.Errorf("%s: profile %q", d.ID, d.Profile)
		}
		if len(d.Concerns) == 0 || !strings.HasSuffix(d.Sentence, ".") {
			t.Errorf("%s: concerns %v, sentence %q", d.ID, d.Concerns, d.Sentence)
		}
	}
}

// TestDifferencesFor picks the differences a rule card shows.
func TestDifferencesFor(t *testing.T) {
	got := DifferencesFor("table-name")
	if len(got) != 2 || got[0].ID != "F-COSMOS-TABLE-CASE" || got[1].ID != "F-AZURITE-GET-TABLE" {
		t.Fatalf("DifferencesFor(table-name) = %+v", got)
	}
	if got := DifferencesFor("no-such-rule"); len(got) != 0 {
		t.Fatalf("DifferencesFor(no-such-rule) = %+v", got)
	}
}
