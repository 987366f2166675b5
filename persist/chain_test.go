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
// refused as missing (it used to load 100 of 200). Deleting it together
// with the empty segment the last clean stop made is refused too (it used
// to load 100 of 200 in silence): the seal of the segment before says a
// segment was made after it. So is deleting that empty segment alone: the
// seal cannot tell whether it held changes. The message's way out keeps
// every change before it.
func TestNewestSegmentDeletedAfterCleanRunsIsRefused(t *testing.T) {
	dir, segs, want := cleanRuns(t, 2, 100)
	d, _ := listDir(dir)
	newest := filepath.Join(dir, logName(d.logs[len(d.logs)-1]))
	if newest == segs[1] || len(d.logs) != 3 {
		t.Fatalf("segments %v: want the two runs' and the one the last clean stop made", d.logs)
	}
	saved := t.TempDir()
	copyFile(t, segs[1], filepath.Join(saved, "seg"))
	copyFile(t, newest, filepath.Join(saved, "newest"))
	restore := func() {
		copyFile(t, filepath.Join(saved, "seg"), segs[1])
		copyFile(t, filepath.Join(saved, "newest"), newest)
	}
	os.Remove(segs[1])
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), filepath.Base(segs[1])+" is missing") {
		t.Fatalf("start without %s: %v", filepath.Base(segs[1]), err)
	}
	os.Remove(newest)
	first := filepath.Join(dir, logName(d.logs[0]))
	before, _ := os.ReadFile(first)
	err := recoverErr(t, dir)
	for _, part := range []string{"the seal of " + filepath.Base(first) + " says " + filepath.Base(segs[1]) + " was made before it", filepath.Base(segs[1]) + " is missing", "refusing to start"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Fatalf("start without the last two segments: %v; want %q", err, part)
		}
	}
	if now, _ := os.ReadFile(first); !bytes.Equal(now, before) {
		t.Error("the refused start changed the remaining segment")
	}
	restore()
	os.Remove(newest)
	err = recoverErr(t, dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Base(newest)+" is missing") {
		t.Fatalf("start without the empty last segment: %v", err)
	}
	// Following the message (truncate -s N FILE) loads every change.
	_, cmd, _ := strings.Cut(err.Error(), "(truncate -s ")
	var size int64
	var file string
	_, err = fmt.Sscanf(cmd, "%d %s", &size, &file)
	if file = strings.TrimRight(file, "),."); err != nil || file != segs[1] {
		t.Fatalf("no truncate advice for %s in %v", segs[1], err)
	}
	if err := os.Truncate(file, size); err != nil {
		t.Fatal(err)
	}
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	if !bytes.Equal(st.Snapshot(), want) || rep.Cut != nil {
		t.Errorf("after taking the seal off as told: %+v, account differs: %v", rep, !bytes.Equal(st.Snapshot(), want))
	}
}

// The segment after a seal that says one follows must begin with its head:
// the empty segment a clean stop made, cut short, is refused.
func TestSuccessorWithoutItsHeadIsRefused(t *testing.T) {
	dir, segs, _ := cleanRuns(t, 1, 10)
	d, _ := listDir(dir)
	newest := filepath.Join(dir, logName(d.logs[len(d.logs)-1]))
	if newest == segs[0] {
		t.Fatal("no segment after the clean stop's")
	}
	whole, _ := os.ReadFile(newest)
	name := filepath.Base(newest)
	for _, c := range []struct {
		size int64
		want string
	}{
		{0, name + " is damaged at offset 0 of 0"},
		{int64(len(segmentMagic)), name + " has no intact head"},
		{headEnd - 1, fmt.Sprintf("%s is damaged at offset %d of %d", name, len(segmentMagic), headEnd-1)},
	} {
		os.WriteFile(newest, whole[:c.size], 0o600)
		err := recoverErr(t, dir)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "refusing to start") {
			t.Fatalf("successor cut to %d bytes: %v; want %q", c.size, err, c.want)
		}
		if now, _ := os.ReadFile(newest); int64(len(now)) != c.size {
			t.Errorf("the refused start changed the segment: %d bytes", len(now))
		}
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

// A clean stop makes the next segment before it writes the seal; a kill in
// between leaves the live segment whole and its seal missing or torn. That
// loses nothing, so the start loads every change (cutting a torn seal) and
// seals the segment, saying a segment follows.
func TestKillBetweenSuccessorAndSealLoadsAll(t *testing.T) {
	for _, torn := range []int64{0, 10, recHeaderSize} {
		t.Run(fmt.Sprint("seal bytes left=", torn), func(t *testing.T) {
			dir, segs, want := cleanRuns(t, 1, 10)
			whole, _ := os.ReadFile(segs[0])
			offs := frameOffsets(t, whole)
			sealAt := offs[len(offs)-1]
			if int64(len(whole)) != sealAt+recHeaderSize+1 || whole[len(whole)-1] != sealNext {
				t.Fatalf("the clean stop's seal at %d of %d does not say a segment follows", sealAt, len(whole))
			}
			if err := os.Truncate(segs[0], sealAt+torn); err != nil {
				t.Fatal(err)
			}
			l, st, rep := open(t, dir, Options{})
			if !bytes.Equal(st.Snapshot(), want) || (torn > 0) != (rep.Cut != nil) {
				t.Errorf("report %+v cut %+v; account differs: %v", rep, rep.Cut, !bytes.Equal(st.Snapshot(), want))
			}
			insert(t, st, "Orders", "q", "after", 1)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			now, _ := os.ReadFile(segs[0])
			if !bytes.Equal(now[:sealAt], whole[:sealAt]) || int64(len(now)) != sealAt+recHeaderSize+1 || now[len(now)-1] != sealNext {
				t.Errorf("the segment was not sealed anew: %d bytes", len(now))
			}
			l2, st2, _ := open(t, dir, Options{})
			defer l2.Close()
			if n, _ := st2.Count("Orders"); n != 11 {
				t.Errorf("next start: %d entities, want 11", n)
			}
		})
	}
}
