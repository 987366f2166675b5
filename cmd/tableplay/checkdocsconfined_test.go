//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckDocsStaysInItsFolder: a src= start state outside the docs
// folder (an absolute path, "../..", a symbolic link out, /etc/passwd) is
// refused without reading it, as is a FIFO as src or as a page, and
// /dev/stdin: each is a problem or an error, never a hang or the outside
// file's text (before: /etc/passwd's lines were printed, a FIFO hung).
func TestCheckDocsStaysInItsFolder(t *testing.T) {
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs")
	os.MkdirAll(filepath.Join(docs, "sub"), 0o755)
	secret := filepath.Join(dir, "secret.json")
	os.WriteFile(secret, []byte(`{"format":"tableplay-account","version":1,"tables":[{"name":"Leaked","created":"2026-01-02T03:04:05Z","entities":[]}]}`), 0o644)
	os.WriteFile(filepath.Join(docs, "inside.json"), []byte(`{"format":"tableplay-account","version":1,"tables":[{"name":"Inside","created":"2026-01-02T03:04:05Z","entities":[]}]}`), 0o644)
	os.Symlink(secret, filepath.Join(docs, "link.json"))
	if err := syscall.Mkfifo(filepath.Join(docs, "pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	el := func(src string) string {
		return `<table-playground src="` + src + `" expect='{"status": 200, "returned": 9}' view="query"></table-playground>` + "\n"
	}
	page := el(secret) + el("../../secret.json") + el("../link.json") + el("/etc/passwd") + el("../pipe.json") + el("/inside.json") + el("../inside.json")
	os.WriteFile(filepath.Join(docs, "sub", "page.html"), []byte(page), 0o644)
	run := func(args ...string) (string, error) {
		var out, errs bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- checkDocsCommand(args, &out, &errs, time.Now) }()
		select {
		case err := <-done:
			return out.String() + errs.String(), err
		case <-time.After(20 * time.Second):
			t.Fatalf("check-docs %v did not finish within 20 s", args)
			return "", nil
		}
	}
	got, err := run(docs)
	if err == nil {
		t.Fatalf("passed:\n%s", got)
	}
	// An absolute src is taken from the docs folder, where these are not.
	for i, want := range []string{"no such file in the docs folder", "outside the docs folder", "outside the docs folder", "no such file in the docs folder", "not a regular file"} {
		if !strings.Contains(got, "page.html:"+string(rune('1'+i))+": the src start state cannot be read") || !strings.Contains(got, want) {
			t.Errorf("line %d: want %q in\n%s", i+1, want, got)
		}
	}
	// Inside the folder, by an absolute (site-rooted) or relative path,
	// the start state is read (and the expectation, 9 rows, is wrong).
	for _, line := range []string{"page.html:6:", "page.html:7:"} {
		if !strings.Contains(got, line) || strings.Contains(got, line+" the src start state cannot be read") {
			t.Errorf("%s: want the expectation judged in\n%s", line, got)
		}
	}
	if strings.Contains(got, "root:") || strings.Contains(got, "Leaked") {
		t.Fatalf("an outside file's text was printed:\n%s", got)
	}
	// A FIFO as a page, and /dev/stdin, are refused without blocking.
	if err := syscall.Mkfifo(filepath.Join(dir, "page.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "page.md"), "/dev/stdin"} {
		if got, err := run(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("check-docs %s: %v\n%s", p, err, got)
		}
	}
}
