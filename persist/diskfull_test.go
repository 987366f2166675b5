//go:build linux

package persist

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
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

// files returns every file in dir with its bytes.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// sameFiles fails the test when dir's files differ from want.
func sameFiles(t *testing.T, dir string, want map[string]string, when string) {
	t.Helper()
	got := files(t, dir)
	for name, b := range want {
		if got[name] != b {
			t.Errorf("%s: %s changed (%d bytes, was %d)", when, name, len(got[name]), len(b))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: %s appeared", when, name)
		}
	}
}

// readOnlyStart starts on dir, which takes no writes, and checks that it
// loads the account, says why it is read-only, refuses every change before
// making it, leaves a torn tail in place, and changes no file, closing
// included.
func readOnlyStart(t *testing.T, dir string, want []byte, n int, why string) Report {
	t.Helper()
	before := files(t, dir)
	var reports []string
	l, st, rep := open(t, dir, Options{Report: func(s string) { reports = append(reports, s) }})
	for _, part := range []string{"read-only: " + why, "every change is refused", "nothing acknowledged is lost", "--data pointing at the copy"} {
		if !strings.Contains(rep.String(), part) || len(reports) != 1 || reports[0] != rep.String() {
			t.Errorf("report %q (told %q); want %q", rep.String(), reports, part)
		}
	}
	if got, _ := st.Count("Orders"); got != n || !bytes.Equal(st.Snapshot(), want) {
		t.Errorf("read-only start: %d entities, want %d; account differs: %v", got, n, !bytes.Equal(st.Snapshot(), want))
	}
	if l.Writable() == nil {
		t.Error("the log says it can take changes")
	}
	e := &entity.Entity{PartitionKey: "p", RowKey: "refused", Properties: []entity.Property{{Name: "N", Value: edm.Int32Value(1)}}}
	if _, err := st.Apply("Orders", store.Op{Kind: store.Insert, Entity: e}); err == nil || err.Status != 403 || !strings.Contains(err.Message, "read-only") {
		t.Errorf("insert on the read-only start: %v", err)
	}
	if _, err := st.CreateTable("More"); err == nil {
		t.Error("a table was created on the read-only start")
	}
	if got, _ := st.Count("Orders"); got != n {
		t.Errorf("after the refused writes: %d entities, want %d", got, n)
	}
	if err := l.Close(); err != nil {
		t.Errorf("close of the read-only log: %v", err)
	}
	sameFiles(t, dir, before, "the read-only start and stop")
	return rep
}

// A restart on a disk that is still full, after a kill that left a torn
// last write, starts read-only (it used to refuse with a bare "no space
// left on device", and after a clean stop it started and then stopped at
// the first write): it serves all 20 acknowledged changes, refuses every
// change with 403 before making it, leaves the torn tail in place and
// writes nothing. Once there is room, the next start cuts the tail, loads
// the 20 and takes writes.
func TestFullDiskAtStartIsReadOnly(t *testing.T) {
	mnt := tmpfs(t, 512<<10)
	dir := filepath.Join(mnt, "data")
	l, st, _ := open(t, dir, Options{})
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		insert(t, st, "Orders", "p", fmt.Sprint("r", i), i)
	}
	want := st.Snapshot()
	insert(t, st, "Orders", "p", "torn", 20)
	l.crash()
	// The last write torn: half of its frame reached the disk.
	seg := segment(t, dir)
	whole, _ := os.ReadFile(seg)
	offs := frameOffsets(t, whole)
	last := offs[len(offs)-1]
	torn := whole[:last+(int64(len(whole))-last)/2]
	if err := os.WriteFile(seg, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	filler := fill(t, mnt)

	rep := readOnlyStart(t, dir, want, 20, "the disk is full")
	if rep.Cut == nil || !rep.Cut.Left || rep.Cut.Offset != last || !rep.Unclean || !strings.Contains(rep.String(), "left in place") {
		t.Errorf("the torn tail: %+v %+v", rep, rep.Cut)
	}

	os.Remove(filler)
	l3, st3, rep3 := open(t, dir, Options{})
	if rep3.ReadOnly != "" || rep3.Cut == nil || rep3.Cut.Left || rep3.Cut.Offset != last || !bytes.Equal(st3.Snapshot(), want) {
		t.Errorf("after freeing space: %+v, cut %+v", rep3, rep3.Cut)
	}
	insert(t, st3, "Orders", "p", "after", 1)
	if err := l3.Close(); err != nil {
		t.Fatal(err)
	}
	l4, st4, _ := open(t, dir, Options{})
	defer l4.Close()
	if n, _ := st4.Count("Orders"); n != 21 {
		t.Errorf("after the write with room: %d entities, want 21", n)
	}
}

// After clean stops, a disk that is full starts read-only too: the segment
// the last clean stop made is not taken up (that would write), nothing is
// written at the stop, and the next start with room writes on as usual.
func TestFullDiskAfterCleanStopIsReadOnly(t *testing.T) {
	mnt := tmpfs(t, 512<<10)
	dir := filepath.Join(mnt, "data")
	for r := 0; r < 2; r++ {
		l, st, _ := open(t, dir, Options{})
		if r == 0 {
			if _, err := st.CreateTable("Orders"); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 10; i++ {
			insert(t, st, "Orders", fmt.Sprint("p", r), fmt.Sprint("r", i), i)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want := func() []byte {
		l, st, _ := open(t, copyDir(t, dir), Options{})
		defer l.Close()
		return st.Snapshot()
	}()
	filler := fill(t, mnt)
	rep := readOnlyStart(t, dir, want, 20, "the disk is full")
	if rep.Unclean || rep.Cut != nil {
		t.Errorf("after clean stops: %+v", rep)
	}
	os.Remove(filler)
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	if rep.ReadOnly != "" || rep.Unclean || !bytes.Equal(st.Snapshot(), want) {
		t.Errorf("with room again: %+v", rep)
	}
	insert(t, st, "Orders", "q", "after", 1)
}

// A data directory on a read-only file system (a read-only bind mount of
// it) starts read-only, with its lock, after a kill too: the torn tail is
// left, nothing is written.
func TestReadOnlyDirectoryStartsReadOnly(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("TABLEPLAY_REQUIRE_ALL") == "1" {
			t.Fatal("a read-only bind mount needs root")
		}
		t.Skip("a read-only bind mount needs root")
	}
	dir, last, want := tornLastWriteDir(t)
	mnt := t.TempDir()
	for _, args := range [][]string{{"--bind", dir, mnt}, {"-o", "remount,ro,bind", mnt}} {
		if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
			t.Fatalf("mount %v: %v %s", args, err, out)
		}
		t.Cleanup(func() {
			if args[0] == "--bind" {
				if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
					t.Errorf("umount: %v %s", err, out)
				}
			}
		})
	}
	rep := readOnlyStart(t, mnt, want, 19, "the file system is read-only")
	if rep.Cut == nil || !rep.Cut.Left || rep.Cut.Offset != last {
		t.Errorf("the torn tail: %+v", rep.Cut)
	}
}

// tornLastWriteDir is a killed log of 20 inserts whose last write is torn,
// and the account a start with room loads from it (19 entities).
func tornLastWriteDir(t *testing.T) (dir string, last int64, want []byte) {
	t.Helper()
	dir, seg, _, damaged, last := tornLastWrite(t)
	if err := os.WriteFile(seg, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	l, st, rep := open(t, copyDir(t, dir), Options{})
	defer l.Close()
	if rep.Cut == nil || rep.Cut.Offset != last {
		t.Fatalf("the torn write was not cut: %+v", rep)
	}
	return dir, last, st.Snapshot()
}
