package persist

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cleanRuns makes a directory of runs clean starts and stops, each
// inserting n entities (the first also creating the table), and returns
// the account and the segment each run wrote its records to.
func cleanRuns(t *testing.T, runs, n int) (dir string, segs []string, want []byte) {
	t.Helper()
	dir = t.TempDir()
	for r := 0; r < runs; r++ {
		l, st, _ := open(t, dir, Options{})
		if r == 0 {
			if _, err := st.CreateTable("Orders"); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i++ {
			insert(t, st, "Orders", fmt.Sprint("p", r), fmt.Sprint("r", i), i)
		}
		want = st.Snapshot()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		segs = append(segs, segment(t, dir))
	}
	return dir, segs, want
}

// A sealed segment cut exactly at a frame boundary after clean stops, its
// seal and 20 acknowledged records gone, is refused: the segment after it
// says where its seal was. (It used to load 280 of 300 in silence.)
func TestSegmentCutAtBoundaryAfterCleanStopIsRefused(t *testing.T) {
	dir, segs, _ := cleanRuns(t, 2, 150)
	seg := segs[1]
	whole, _ := os.ReadFile(seg)
	offs := frameOffsets(t, whole)
	cut := whole[:offs[len(offs)-21]] // the seal and the last 20 records
	os.WriteFile(seg, cut, 0o600)
	err := recoverErr(t, dir)
	for _, part := range []string{filepath.Base(seg) + " ends at offset", "without its seal", "cut short", "20 acknowledged change(s) are missing", "refusing to start"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Fatalf("start after the cut: %v; want %q", err, part)
		}
	}
	if now, _ := os.ReadFile(seg); !bytes.Equal(now, cut) {
		t.Error("the refused start changed the segment")
	}
}

// The newest segment holding records deleted after two clean runs is
// refused as missing (it used to load 100 of 200); the segment a clean stop
// made last holds nothing, and deleting it loses nothing.
func TestNewestSegmentDeletedAfterCleanRunsIsRefused(t *testing.T) {
	dir, segs, want := cleanRuns(t, 2, 100)
	d, _ := listDir(dir)
	newest := filepath.Join(dir, logName(d.logs[len(d.logs)-1]))
	if newest == segs[1] {
		t.Fatal("no segment after the last clean stop's")
	}
	saved := t.TempDir()
	copyFile(t, segs[1], filepath.Join(saved, "seg"))
	os.Remove(segs[1])
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), filepath.Base(segs[1])+" is missing") {
		t.Fatalf("start without %s: %v", filepath.Base(segs[1]), err)
	}
	copyFile(t, filepath.Join(saved, "seg"), segs[1])
	os.Remove(newest)
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	if !bytes.Equal(st.Snapshot(), want) || rep.Unclean || rep.Cut != nil {
		t.Errorf("without the empty last segment: %+v, account differs: %v", rep, !bytes.Equal(st.Snapshot(), want))
	}
}

// A torn last write is still cut and reported when the log went on in the
// segment a clean stop made.
func TestTornTailAfterCleanStopIsCut(t *testing.T) {
	dir, _, _ := cleanRuns(t, 1, 10)
	l, st, rep := open(t, dir, Options{})
	if rep.Segments != 1 || rep.Unclean {
		t.Fatalf("second start: %+v", rep)
	}
	for i := 0; i < 5; i++ {
		insert(t, st, "Orders", "q", fmt.Sprint("r", i), i)
	}
	l.crash()
	seg := segment(t, dir)
	whole, _ := os.ReadFile(seg)
	offs := frameOffsets(t, whole)
	last := offs[len(offs)-1]
	whole[len(whole)-3] ^= 0x40
	os.WriteFile(seg, whole, 0o600)
	l2, st2, rep2 := open(t, dir, Options{})
	defer l2.Close()
	if rep2.Cut == nil || rep2.Cut.Offset != last || !rep2.Unclean {
		t.Fatalf("report %+v cut %+v", rep2, rep2.Cut)
	}
	if n, _ := st2.Count("Orders"); n != 14 {
		t.Errorf("%d entities, want 14", n)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
