package tableerr

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDecisionsMatchFidelity keeps the decisions rule cards name in step
// with docs/fidelity.md: the same ids in the same order, each with its
// heading and its confidence.
func TestDecisionsMatchFidelity(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "fidelity.md"))
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`^(F-[A-Z0-9-]+) — (.+)`)
	confidence := regexp.MustCompile(`\*\*Confidence:\*\*\s*(\w+)`)
	var want []Decision
	for _, sec := range strings.Split(string(doc), "\n### ")[1:] {
		m := heading.FindStringSubmatch(strings.SplitN(sec, "\n", 2)[0])
		if m == nil {
			continue // TestFidelityIDs reports it
		}
		d := Decision{ID: m[1], Title: strings.ReplaceAll(m[2], "`", "")}
		if c := confidence.FindStringSubmatch(sec); c != nil {
			d.Confidence = c[1]
		}
		want = append(want, d)
	}
	got := decisions()
	if len(got) != len(want) {
		t.Errorf("%d decisions, docs/fidelity.md has %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("decision %d: %+v, docs/fidelity.md says %+v", i, got[i], want[i])
		}
	}
	if d, ok := LookupDecision("F-KEY-SIZE"); !ok || d.Title != "how long a key may be" {
		t.Errorf("F-KEY-SIZE: %+v %v", d, ok)
	}
	if _, ok := LookupDecision("F" + "-NOPE"); ok {
		t.Error("an unknown id was found")
	}
}
