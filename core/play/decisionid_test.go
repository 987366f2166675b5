package play

import (
	"regexp"
	"testing"
)

// decisionIDPattern is the regular expression replaceDecisionIDs stands for.
var decisionIDPattern = regexp.MustCompile(`\(?\bF-[A-Z0-9]+(?:-[A-Z0-9]+)*\b\)?`)

var decisionIDSeeds = []string{
	"see (F-BATCH-FAILURE) and F-PREFER.",
	"xF-A F-A_b F-AB-cd (F-A-) F-A-B-C) ((F-X))",
	"F-",
	"F-1-2-3x-4",
	"(F-ETAG",
	"no ids here",
	"F-A-B-",
}

// FuzzReplaceDecisionIDs: the hand-written scanner replaces exactly what
// the regular expression it replaces matches.
func FuzzReplaceDecisionIDs(f *testing.F) {
	for _, s := range decisionIDSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mark := func(m string) string { return "<" + m + ">" }
		if got, want := replaceDecisionIDs(s, mark), decisionIDPattern.ReplaceAllStringFunc(s, mark); got != want {
			t.Fatalf("%q: %q, regexp %q", s, got, want)
		}
	})
}
