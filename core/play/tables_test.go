package play

import (
	"strings"
	"testing"
)

// TestReadTables: the service's list reads as its names; anything else
// (the answers of issue 40's endpoints) is an error, never a throw.
func TestReadTables(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for body, want := range map[string]string{
		`{"value":[{"TableName":"a"},{"TableName":"b"}]}`: `{"names":["a","b"]}`,
		`{"value":[]}`:                    `{"names":[]}`,
		`{"value":"x"}`:                   `"error"`,
		`{"value":[{"TableName":"a"}`:     `"error"`,
		`{"value":null}`:                  `"error"`,
		`{"value":[null]}`:                `"error"`,
		`{"value":[{"TableName":5}]}`:     `"error"`,
		`<html><body>hello</body></html>`: `"error"`,
		strings.Repeat("[", 1000):         `"error"`,
	} {
		if got := string(a.ReadTables(body)); !strings.Contains(got, want) {
			t.Errorf("%.40s: %s, want %s", body, got, want)
		}
	}
}
