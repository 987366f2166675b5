package persist

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// crash releases the directory as a killed process does: whatever was
// written stays, nothing is sealed.
func (l *Log) crash() {
	l.background.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seg.Close()
	l.lock.Close()
	l.err = errors.New("crashed")
}

// inserts makes a directory whose log holds a table and n inserts (one
// write each) and returns the newest segment and the account; crash stops
// the log as a kill does instead of closing it.
func inserts(t *testing.T, n int, crash bool) (dir, seg string, want []byte) {
	t.Helper()
	dir = t.TempDir()
	l, st, _ := open(t, dir, Options{})
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		insert(t, st, "Orders", "p", fmt.Sprint("r", i), i)
	}
	want = st.Snapshot()
	if crash {
		l.crash()
	} else if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, segment(t, dir), want
}

// The case of issue 29: 600 acknowledged inserts, a clean stop or a kill,
// one byte flipped at 10 % of the newest segment. The start must refuse,
// naming the file and the offset and how to keep the intact part, and
// change nothing; it used to cut the file there and load 59 entities.
func TestOneFlippedByteStopsTheStart(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprint("crash=", crash), func(t *testing.T) {
			dir, seg, want := inserts(t, 600, crash)
			undamaged := copyDir(t, dir)
			whole, _ := os.ReadFile(seg)
			damaged := bytes.Clone(whole)
			flip := len(whole) / 10
			damaged[flip] ^= 0x01
			os.WriteFile(seg, damaged, 0o600)
			err := recoverErr(t, dir)
			var bad int64
			for _, at := range frameOffsets(t, whole) {
				if at <= int64(flip) {
					bad = at
				}
			}
			t.Logf("segment of %d bytes, byte %d flipped: %v", len(whole), flip, err)
			for _, part := range []string{
				fmt.Sprintf("%s is damaged at offset %d", filepath.Base(seg), bad),
				"refusing to start", "nothing was changed",
				fmt.Sprintf("truncate -s %d %s", bad, seg),
			} {
				if err == nil || !strings.Contains(err.Error(), part) {
					t.Fatalf("start after the flip: %v; want %q", err, part)
				}
			}
			if now, _ := os.ReadFile(seg); !bytes.Equal(now, damaged) {
				t.Errorf("the segment was changed: %d bytes, was %d", len(now), len(damaged))
			}
			// Following the message keeps exactly the changes before the
			// damage, and says the stop was not clean.
			if err := os.Truncate(seg, bad); err != nil {
				t.Fatal(err)
			}
			if _, drop, ok := strings.Cut(err.Error(), " and delete "); ok {
				names, _, _ := strings.Cut(drop, ". ")
				for _, name := range strings.Split(names, ", ") {
					if err := os.Remove(filepath.Join(dir, name)); err != nil {
						t.Fatal(err)
					}
				}
			}
			l, st, rep := open(t, dir, Options{})
			defer l.Close()
			n, _ := st.Count("Orders")
			if rep.Records != n+1 || !rep.Unclean || rep.Cut != nil || !strings.Contains(err.Error(), fmt.Sprintf("The %d change(s) before offset %d", rep.Records, bad)) {
				t.Errorf("after truncating as told: %+v, %d entities; message %v", rep, n, err)
			}
			// Undamaged, it loads everything.
			l2, st2, rep2 := open(t, undamaged, Options{})
			defer l2.Close()
			if !bytes.Equal(st2.Snapshot(), want) || rep2.Unclean != crash {
				t.Errorf("undamaged log: %+v", rep2)
			}
		})
	}
}

// After a kill, damage in the last write is a torn tail: cut, reported, and
// the segment sealed, so that the next start finds a clean log.
func TestTornLastWriteIsCutAndSealed(t *testing.T) {
	dir, seg, whole, damaged, last := tornLastWrite(t)
	os.WriteFile(seg, damaged, 0o600)
	var reports []string
	l, st, rep := open(t, dir, Options{Report: func(s string) { reports = append(reports, s) }})
	if rep.Cut == nil || rep.Cut.Offset != last || rep.Records != 20 || !rep.Unclean || len(reports) != 1 {
		t.Fatalf("report %+v cut %+v, reported %q", rep, rep.Cut, reports)
	}
	if n, _ := st.Count("Orders"); n != 19 {
		t.Errorf("%d entities, want 19", n)
	}
	insert(t, st, "Orders", "p", "after", 1)
	l.Close()
	now, _ := os.ReadFile(seg)
	// The seal says a segment follows: the start made it before sealing.
	if !bytes.Equal(now[:last], whole[:last]) || len(now) != int(last)+recHeaderSize+1 || now[len(now)-1] != sealNext {
		t.Errorf("cut segment: %d bytes, want %d and a seal saying a segment follows", len(now), last)
	}
	l2, st2, rep2 := open(t, dir, Options{})
	defer l2.Close()
	if n, _ := st2.Count("Orders"); n != 20 || rep2.Unclean || rep2.Cut != nil {
		t.Errorf("next start: %+v, %d entities", rep2, n)
	}
}

// tornLastWrite makes a killed log of 20 inserts and, apart, its newest
// segment with a byte of its last write changed (not yet written back).
func tornLastWrite(t *testing.T) (dir, seg string, whole, damaged []byte, last int64) {
	t.Helper()
	dir, seg, _ = inserts(t, 20, true)
	whole, _ = os.ReadFile(seg)
	offs := frameOffsets(t, whole)
	last = offs[len(offs)-1]
	damaged = bytes.Clone(whole)
	damaged[len(damaged)-3] ^= 0x40
	return dir, seg, whole, damaged, last
}

// A sealed segment followed by others cannot lose its end unnoticed, even
// at a frame boundary; nor can records go missing from the middle.
func TestRecordsMissingStopTheStart(t *testing.T) {
	dir, seg, _ := inserts(t, 5, false)
	l, st, _ := open(t, dir, Options{})
	insert(t, st, "Orders", "p", "later", 1)
	l.Close()
	whole, _ := os.ReadFile(seg)
	offs := frameOffsets(t, whole)
	os.WriteFile(seg, whole[:offs[len(offs)-1]], 0o600) // the seal gone
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), "without its seal") {
		t.Errorf("segment cut at a frame boundary: %v", err)
	}
	// The third record taken out: the fourth's number is wrong.
	cut := append(bytes.Clone(whole[:offs[2]]), whole[offs[3]:]...)
	os.WriteFile(seg, cut, 0o600)
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), "out of sequence") {
		t.Errorf("a record missing: %v", err)
	}
}

// legacyDir writes a data directory in the format before seals: bare
// frames of the change records of a workload. It returns the account.
func legacyDir(t *testing.T, dir string) (recs [][]byte, want []byte) {
	t.Helper()
	j := &storetest.Journal{}
	st := store.New(store.Options{Clock: clock, Journal: j})
	workload(t, st, 20)
	var seg []byte
	for _, r := range j.Records() {
		seg = appendFrame(seg, r)
	}
	if err := os.WriteFile(filepath.Join(dir, logName(1)), seg, 0o600); err != nil {
		t.Fatal(err)
	}
	return j.Records(), st.Snapshot()
}

// A data directory of the previous format loads, goes on in the new one,
// and damage in it is judged as in the new one where its framing allows.
func TestLegacyDirectoryLoads(t *testing.T) {
	dir := t.TempDir()
	recs, want := legacyDir(t, dir)
	l, st, rep := open(t, dir, Options{})
	if !bytes.Equal(st.Snapshot(), want) || rep.Records != len(recs) || rep.Unclean || rep.Cut != nil {
		t.Fatalf("legacy directory: %+v", rep)
	}
	insert(t, st, "Orders", "p", "new", 1)
	want = st.Snapshot()
	l.Close()
	copied := copyDir(t, dir)
	l2, st2, _ := open(t, dir, Options{})
	if !bytes.Equal(st2.Snapshot(), want) {
		t.Fatal("legacy and new segments together differ")
	}
	l2.Close()

	seg := filepath.Join(copied, logName(1))
	whole, _ := os.ReadFile(seg)
	whole[len(whole)-2] ^= 1 // in its last frame
	os.WriteFile(seg, whole, 0o600)
	if err := recoverErr(t, copied); err == nil || !strings.Contains(err.Error(), "newer segments hold writes") {
		t.Errorf("damaged legacy segment before new ones: %v", err)
	}

	// The only segment, damaged in the middle: intact frames follow.
	dir = t.TempDir()
	legacyDir(t, dir)
	seg = filepath.Join(dir, logName(1))
	whole, _ = os.ReadFile(seg)
	damaged := bytes.Clone(whole)
	damaged[len(whole)/10] ^= 1
	os.WriteFile(seg, damaged, 0o600)
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), "intact record of a later write") {
		t.Errorf("legacy segment damaged in the middle: %v", err)
	}
	// A torn tail is still cut.
	os.WriteFile(seg, append(bytes.Clone(whole), 9, 0, 0), 0o600)
	l3, _, rep3 := open(t, dir, Options{})
	defer l3.Close()
	if rep3.Cut == nil || rep3.Cut.Offset != int64(len(whole)) || rep3.Records != len(recs) {
		t.Errorf("legacy torn tail: %+v", rep3)
	}
}

// copyDir copies a data directory's files (not its LOCK) into a new one.
func copyDir(t testing.TB, dir string) string {
	t.Helper()
	to := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "LOCK" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return to
}
