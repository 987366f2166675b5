// Package need is the one reading of TABLEPLAY_REQUIRE_ALL for Go tests: a
// test whose dependency (a command, an npm or Debian package) is missing
// skips with a line saying what to run, except where make test, make unit
// and CI set the variable, where it fails, so that nothing is skipped there.
package need

import (
	"os"
	"testing"
)

// Env names the variable; any value but "" and "0" requires everything.
const Env = "TABLEPLAY_REQUIRE_ALL"

// All reports whether a missing dependency must fail its test.
func All() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Missing stops t because what is missing: a skip saying fix, or under
// TABLEPLAY_REQUIRE_ALL a failure saying the same.
func Missing(t testing.TB, what, fix string) {
	t.Helper()
	if All() {
		t.Fatalf("%s is missing: %s (%s=%s makes this a failure)", what, fix, Env, os.Getenv(Env))
	}
	t.Skipf("%s is missing: %s", what, fix)
}
