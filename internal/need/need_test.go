package need

import "testing"

// TestAll: the variable unset, empty or "0" lets a test skip; any other
// value requires everything.
func TestAll(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "1": true, "yes": true} {
		t.Setenv(Env, v)
		if All() != want {
			t.Errorf("%s=%q: All() = %v, want %v", Env, v, !want, want)
		}
	}
}
