package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckDocsCommand: a folder is walked for Markdown and HTML, a broken
// expectation is printed as file:line and fails the command; the same
// folder with the expectation put right passes.
func TestCheckDocsCommand(t *testing.T) {
	dir := t.TempDir()
	page := "<p>Intro</p>\n" +
		`<table-playground view="query" expect='{"status": 200, "returned": 2}'>` + "\n" +
		`<script type="application/json">{"account": {"format": "tableplay-account", "version": 1, "tables": [{"name": "Things", "created": "2026-01-02T03:04:05Z", "entities": [` +
		`{"PartitionKey": "p", "RowKey": "1", "Timestamp": "2026-01-02T03:04:05Z", "properties": []}]}]}, "filter": "PartitionKey eq 'p'"}</script>` + "\n</table-playground>\n"
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "sub", "page.html"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(page)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(`<table-playground example="nothing-such">`), 0o644) // not a doc file
	var out, errOut bytes.Buffer
	err := run([]string{"check-docs", dir}, &out, &errOut)
	want := filepath.ToSlash(filepath.Join(dir, "sub", "page.html")) + ":2: query: returned: expected 2, got 1\n"
	if err == nil || out.String() != want {
		t.Fatalf("err %v, printed %q, want %q", err, out.String(), want)
	}
	if !strings.Contains(errOut.String(), "1 examples in 1 files, 1 problems") {
		t.Errorf("summary: %q", errOut.String())
	}
	write(strings.Replace(page, `"returned": 2`, `"returned": 1`, 1))
	out.Reset()
	if err := run([]string{"check-docs", dir}, &out, &errOut); err != nil || out.Len() != 0 {
		t.Errorf("the corrected page: %v %q", err, out.String())
	}
	if err := checkDocsCommand(nil, &out, &errOut, time.Now); err == nil {
		t.Error("no paths accepted")
	}
}
