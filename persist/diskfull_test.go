//go:build linux

package persist

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tableplay/tableplay/core/store"
)

// tmpfs mounts a small tmpfs of size bytes (root only) and returns its
// folder; it is unmounted when the test ends.
func tmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("TABLEPLAY_REQUIRE_ALL") == "1" {
			t.Fatal("mounting a small tmpfs to fill needs root")
		}
		t.Skip("mounting a small tmpfs to fill needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount: %v %s", err, out)
		}
	})
	return mnt
}

// fill writes a file until the disk refuses, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for i := 0; i < 1<<16; i++ { // bounded: far more than the tmpfs holds
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return name
		}
	}
	t.Fatal("the disk never filled")
	return ""
}

// A restart on a disk that is still full, after a kill, cannot seal the
// log or make its next segment: it refuses with a message saying nothing
// is lost and what to do (it used to be a bare "no space left on device"),
// and once there is room everything acknowledged loads.
func TestFullDiskAtStartSaysNothingIsLost(t *testing.T) {
	mnt := tmpfs(t, 512<<10)
	dir := filepath.Join(mnt, "data")
	l, st, _ := open(t, dir, Options{})
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		insert(t, st, "Orders", "p", fmt.Sprint("r", i), i)
	}
	l.crash()
	filler := fill(t, mnt)

	l2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = l2.Recover(store.New(store.Options{Clock: clock}))
	l2.Close()
	for _, part := range []string{"the disk is full", "no space left on device", "nothing is lost", "Free space on that disk", "--data pointing at the copy"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Fatalf("start on the full disk: %v; want %q", err, part)
		}
	}
	os.Remove(filler)
	l3, st3, rep := open(t, dir, Options{})
	defer l3.Close()
	if n, _ := st3.Count("Orders"); n != 20 {
		t.Errorf("after freeing space: %d entities, want 20 (%+v)", n, rep)
	}
	insert(t, st3, "Orders", "p", "after", 1)
}
