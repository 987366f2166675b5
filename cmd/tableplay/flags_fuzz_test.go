package main

import (
	"strings"
	"testing"
)

// FuzzParseAccount: any --account or AZURITE_ACCOUNTS entry is read or
// refused with one line, never a panic; a name read follows the rules.
func FuzzParseAccount(f *testing.F) {
	f.Add("devstoreaccount1:" + secondKey)
	f.Add("acct:" + secondKey + ":" + secondKey)
	f.Add("a:b:c:d")
	f.Add(":")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseAccount(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("two lines for %q: %v", s, err)
			}
			return
		}
		if len(a.name) < 3 || len(a.name) > 24 || len(a.key) == 0 {
			t.Fatalf("read %q as %+v", s, a)
		}
	})
}
