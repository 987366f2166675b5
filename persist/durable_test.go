package persist

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileDurableReplaces writes a file twice: the second content wins
// and no temporary file is left.
func TestWriteFileDurableReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "MARK")
	for _, s := range []string{"one\n", "two\n"} {
		if err := WriteFileDurable(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != s {
			t.Fatalf("read %q, %v; want %q", b, err, s)
		}
	}
	if _, err := os.Stat(p + tmpSuffix); !os.IsNotExist(err) {
		t.Fatalf("temporary file left: %v", err)
	}
}

// TestWriteFileDurableLeavesNoTemporary fails the rename (the target is a
// directory that is not empty) and finds the temporary file removed.
func TestWriteFileDurableLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "MARK")
	if err := os.MkdirAll(filepath.Join(p, "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileDurable(p, []byte("x"), 0o600); err == nil {
		t.Fatal("rename over a full directory succeeded")
	}
	if _, err := os.Stat(p + tmpSuffix); !os.IsNotExist(err) {
		t.Fatalf("temporary file left after a failure: %v", err)
	}
}
