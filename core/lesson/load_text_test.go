package lesson

import (
	"regexp"
	"slices"
	"testing"
)

// The hand-written matchers agree with the patterns they replace.
func TestValidIDAndStatusesMatchTheirPatterns(t *testing.T) {
	id := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	status := regexp.MustCompile(`\b[2-5][0-9][0-9]\b`)
	long := "a123456789012345678901234567890123456789012345678901234567890bc"
	for _, s := range []string{"", "a", "-a", "a-", "keys", "Keys", "int64-js", "a_b", "é", long, long + "d", "0", "9-9"} {
		if got, want := validID(s), id.MatchString(s); got != want {
			t.Errorf("validID(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	for _, s := range []string{"", "404", "A 404 Not Found", "x404", "404x", "4040", "204 then 412.", "(409)", "199 600 500", "_200", "2000 300", "412,409", "é404", "40"} {
		got, want := statuses(s), status.FindAllString(s, -1)
		if !slices.Equal(got, want) {
			t.Errorf("statuses(%q) = %q, the pattern finds %q", s, got, want)
		}
	}
}
