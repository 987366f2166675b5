package rest

import (
	"strings"
	"testing"
)

// FuzzReadClaims: any bearer token text is read or refused, never a panic,
// and a token read has exactly three parts.
func FuzzReadClaims(f *testing.F) {
	f.Add("eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1cmUuY29tIiwiZXhwIjoxfQ.c2ln")
	f.Add("a.b.c")
	f.Add("..")
	f.Add("x.eyJhdWQiOlsiYSIsMV19.y")
	f.Fuzz(func(t *testing.T, token string) {
		if _, ok := readClaims(token); ok && strings.Count(token, ".") != 2 {
			t.Fatalf("read %q", token)
		}
	})
}
