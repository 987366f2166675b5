package persist

import (
	"bytes"
	"os"
	"testing"
)

// testdata/main-d53f54b is a data directory written by tableplay serve as
// built from main at d53f54b (before the shared value codec), driven by
// testdata/main-d53f54b.py: entities of all eight Edm types at some of
// their edges, merges, replaces, deletes, batches, an ACL and a deleted
// table, compacted once into a snapshot of blocks, then a sealed segment
// and the tail of a killed server. main-d53f54b.json is that build's JSON
// export of the account loaded from it.
const fixtureDir = "testdata/main-d53f54b"

// TestPreviousFormatDirectoryLoadsExactly: the directory opens, loads the
// very account that build exported, and after its next compaction (which
// writes today's format) loads the same account again; a write then is
// recorded in today's record version.
func TestPreviousFormatDirectoryLoadsExactly(t *testing.T) {
	want, err := os.ReadFile(fixtureDir + ".json")
	if err != nil {
		t.Fatal(err)
	}
	dir := copyDir(t, fixtureDir)
	l, st, rep := open(t, dir, Options{CloseCompactBytes: 1})
	if rep.Snapshot != snapshotName(9) || rep.Records != 10 || rep.Segments != 2 {
		t.Errorf("report %+v: want snapshot-9 and 10 records from 2 segments", rep)
	}
	if got := st.Snapshot(); !bytes.Equal(got, want) {
		t.Fatalf("loaded account differs from the export (%d bytes, want %d)", len(got), len(want))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.snapshots) != 1 || d.snapshots[0] <= 9 {
		t.Fatalf("no compaction at the clean stop: snapshots %v", d.snapshots)
	}
	l, st, rep = open(t, dir, Options{})
	if rep.Records != 0 {
		t.Errorf("after compaction %d records replayed", rep.Records)
	}
	if got := st.Snapshot(); !bytes.Equal(got, want) {
		t.Fatal("the account differs after the upgrading compaction")
	}
	// What is written now is in today's record version.
	insert(t, st, "Types", "p9", "new", 1)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if d, err = listDir(dir); err != nil {
		t.Fatal(err)
	}
	seg, err := os.ReadFile(segment(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(seg, []byte(`{"v":2,"op":"write","table":"Types"`)) {
		t.Errorf("the new write's record is not of version 2: %q", seg)
	}
}
