package persist

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileDurableReplaces: the file holds the new bytes, with the
// permission asked for, and no temporary file is left.
func TestWriteFileDurableReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MARK")
	for _, want := range []string{"first\n", "second\n"} {
		if err := WriteFileDurable(path, []byte(want), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v, %v", fi, err)
	}
	assertNoTemp(t, dir)
}

// TestWriteFileDurableFailureLeavesNoTemp: a rename that fails (the target
// is a directory) keeps the old target and removes the temporary file.
func TestWriteFileDurableFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MARK")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "inside"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileDurable(path, []byte("x"), 0o600); err == nil {
		t.Fatal("replacing a non-empty directory succeeded")
	}
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		t.Fatalf("the old target is gone: %v, %v", fi, err)
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	d, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.temporary) != 0 {
		t.Fatalf("temporary files left: %v", d.temporary)
	}
}
