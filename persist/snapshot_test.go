package persist

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/store"
)

// snapshotFile is a compacted directory, its snapshot's path and bytes, and
// the account it holds with the log.
func snapshotFile(t *testing.T) (dir, path string, b, want []byte) {
	t.Helper()
	dir = compacted(t)
	l, st, _ := open(t, dir, Options{})
	want = st.Snapshot()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	d, _ := listDir(dir)
	path = filepath.Join(dir, snapshotName(d.snapshots[len(d.snapshots)-1]))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, path, b, want
}

// TestSnapshotIsBlocks: a compaction writes the binary format (magic, then
// checksummed blocks), and it loads back into the same account.
func TestSnapshotIsBlocks(t *testing.T) {
	dir := compacted(t)
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	d, _ := listDir(dir)
	b, err := os.ReadFile(filepath.Join(dir, snapshotName(d.snapshots[0])))
	if err != nil || !bytes.HasPrefix(b, snapshotMagic) {
		t.Fatalf("snapshot %q…, %v: want the block format", b[:min(16, len(b))], err)
	}
	if rep.Snapshot == "" {
		t.Fatal("no snapshot loaded")
	}
	// The loaded account holds the workload's tables.
	if _, err := st.GetTable("Orders"); err != nil {
		t.Fatal(err)
	}
}

// TestJSONSnapshotStillLoads: a data directory of the format before blocks
// (a snapshot that is one frame of the account's JSON document) loads.
func TestJSONSnapshotStillLoads(t *testing.T) {
	src := compacted(t)
	l0, st, _ := open(t, src, Options{})
	want := st.Snapshot()
	l0.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, snapshotName(7)), appendFrame(nil, want), 0o600); err != nil {
		t.Fatal(err)
	}
	seg, err := createSegment(dir, 7, headRotate, 0)
	if err != nil {
		t.Fatal(err)
	}
	seg.Close()
	l, st2, rep := open(t, dir, Options{})
	defer l.Close()
	if rep.Snapshot != snapshotName(7) || !bytes.Equal(st2.Snapshot(), want) {
		t.Fatalf("loaded %+v:\n%s\nwant\n%s", rep, st2.Snapshot(), want)
	}
}

// TestDamagedSnapshotStopsTheStart: a snapshot cut at any point, or with
// any byte changed, stops the start with a message naming it, and leaves
// the directory as it was.
func TestDamagedSnapshotStopsTheStart(t *testing.T) {
	dir, path, b, _ := snapshotFile(t)
	names := func() string {
		es, _ := os.ReadDir(dir)
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return strings.Join(n, " ")
	}
	before := names()
	step := max(1, len(b)/200)
	try := func(what string, damaged []byte) {
		t.Helper()
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		err := recoverErr(t, dir)
		if err == nil || !strings.Contains(err.Error(), filepath.Base(path)+" is damaged") {
			t.Fatalf("%s: %v", what, err)
		}
		if got := names(); got != before {
			t.Fatalf("%s: the directory changed: %s → %s", what, before, got)
		}
	}
	for n := 0; n < len(b); n += step {
		try("cut at "+itoa(n), b[:n])
	}
	for i := 0; i < len(b); i += step {
		c := bytes.Clone(b)
		c[i] ^= 0x10
		try("byte "+itoa(i)+" changed", c)
	}
	try("a byte added", append(bytes.Clone(b), 0))
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzReadSnapshot: any file read as a snapshot is loaded whole or refused
// with the account left as it was, never a panic.
func FuzzReadSnapshot(f *testing.F) {
	dir := compacted(f)
	d, _ := listDir(dir)
	b, _ := os.ReadFile(filepath.Join(dir, snapshotName(d.snapshots[len(d.snapshots)-1])))
	f.Add(b)
	st := store.New(store.Options{Clock: clock})
	f.Add(appendFrame(nil, st.Snapshot()))
	f.Add(snapshotMagic)
	f.Fuzz(func(t *testing.T, in []byte) {
		st := store.New(store.Options{Clock: clock})
		if _, err := st.CreateTable("Kept"); err != nil {
			t.Fatal(err)
		}
		if err := readSnapshot(bytes.NewReader(in), int64(len(in)), st); err != nil {
			if _, gerr := st.GetTable("Kept"); gerr != nil {
				t.Fatalf("refused (%v) but the account changed", err)
			}
		}
	})
}

// TestCloseCompacts: with CloseCompactBytes a clean stop leaves a snapshot
// and no records to replay; without it the log is replayed.
func TestCloseCompacts(t *testing.T) {
	for _, at := range []int64{0, 1} {
		dir := t.TempDir()
		l, st, _ := open(t, dir, Options{CloseCompactBytes: at})
		workload(t, st, 20)
		want := st.Snapshot()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		l2, st2, rep := open(t, dir, Options{})
		l2.Close()
		if !bytes.Equal(st2.Snapshot(), want) {
			t.Fatalf("CloseCompactBytes %d: the account changed", at)
		}
		if compacted := rep.Snapshot != "" && rep.Records == 0; compacted != (at > 0) {
			t.Errorf("CloseCompactBytes %d: start replayed %+v", at, rep)
		}
	}
}
