package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tableplay/tableplay/core/store"
)

// fuzzLog is a data directory written by two starts (the second one killed
// or stopped cleanly): two segments, a third start would compact them. It
// holds the account after each of its records.
type fuzzLog struct {
	dir      string
	segments []string
	prefixes map[string]int // the account after n records → n
	records  int
}

func makeFuzzLog(t testing.TB, killed bool) fuzzLog {
	dir, err := os.MkdirTemp("", "tableplay-fuzz-recover")
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < 2; start++ {
		l, st, _ := open(t, dir, Options{CompactBytes: 1 << 30})
		if start == 0 {
			if _, err := st.CreateTable("Orders"); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 6; i++ {
			insert(t, st, "Orders", fmt.Sprint("p", start), fmt.Sprint("r", i), i)
		}
		if start == 1 && killed {
			l.crash()
		} else if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	d, err := listDir(dir)
	// Killed: the segments of both starts; clean: and the successor the
	// clean stop made.
	if err != nil || len(d.logs) != 3-killed01(killed) || len(d.snapshots) != 0 {
		t.Fatal(err, d)
	}
	fl := fuzzLog{dir: dir, prefixes: map[string]int{}}
	st := store.New(store.Options{Clock: clock})
	fl.prefixes[string(st.Snapshot())] = 0
	for _, g := range d.logs {
		fl.segments = append(fl.segments, logName(g))
		b, err := os.ReadFile(filepath.Join(dir, logName(g)))
		if err != nil {
			t.Fatal(err)
		}
		fr := newRecordReader(bytes.NewReader(b[len(segmentMagic):]), int64(len(b)))
		for {
			f, err := fr.next()
			if err != nil {
				break
			}
			if f.seal() || (f.write == int64(len(segmentMagic)) && len(f.payload) == 1) {
				continue // a seal or the head
			}
			if err := st.Redo(f.payload); err != nil {
				t.Fatal(err)
			}
			fl.records++
			fl.prefixes[string(st.Snapshot())] = fl.records
		}
	}
	return fl
}

// Random damage anywhere in any segment of a log (a byte flipped, a range
// zeroed, the file cut short, garbage appended), after a clean stop or a
// kill: the start either refuses, or loads the account as it was after some
// whole number of records; and it loads every acknowledged record (every
// record here was acknowledged) unless its report says the log was cut or
// the last stop was not clean.
func FuzzRecover(f *testing.F) {
	var once [2]sync.Once
	var logs [2]fuzzLog
	f.Cleanup(func() {
		for _, l := range logs {
			if l.dir != "" {
				os.RemoveAll(l.dir)
			}
		}
	})
	for _, s := range [][]byte{
		{0, 2, 0, 0, 0, 0, 0, 0, 0, 0},
		{1, 2, 1, 100, 0, 0, 0, 0, 1, 0},
		{0, 1, 2, 50, 0, 0, 0, 8, 0, 0},
		{1, 0, 3, 9, 0, 0, 0, 0, 0, 0},
		{0, 2, 0, 255, 255, 0, 0, 0x40, 0, 0},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 10 {
			return
		}
		killed := int(in[0] & 1)
		once[killed].Do(func() { logs[killed] = makeFuzzLog(t, killed == 1) })
		fl := logs[killed]
		dir := copyDir(t, fl.dir)
		seg := filepath.Join(dir, fl.segments[int(in[1])%len(fl.segments)])
		b, err := os.ReadFile(seg)
		if err != nil {
			t.Fatal(err)
		}
		at := int(binary.LittleEndian.Uint32(in[3:7]) % uint32(len(b)+1))
		n := int(in[8])
		switch in[2] % 4 {
		case 0: // a byte flipped
			if at == len(b) {
				at--
			}
			b[at] ^= max(in[7], 1)
		case 1: // a range zeroed
			clear(b[at:min(len(b), at+n+1)])
		case 2: // cut short
			b = b[:at]
		case 3: // garbage after the end
			b = append(b, in[9:]...)
		}
		if err := os.WriteFile(seg, b, 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		st := store.New(store.Options{Clock: clock})
		rep, err := l.Recover(st)
		if err != nil {
			return // refused: nothing loaded, nothing lost
		}
		got, ok := fl.prefixes[string(st.Snapshot())]
		if !ok {
			t.Fatalf("loaded an account that no prefix of the log gives: %+v", rep)
		}
		if got < fl.records && rep.Cut == nil && !rep.Unclean {
			t.Fatalf("loaded %d of %d acknowledged records without saying so: %+v", got, fl.records, rep)
		}
		// Each insert was a write of its own, and only the last write can
		// be torn: one flipped byte or bytes appended cost at most that
		// last record, after a kill too (an unclean stop is no excuse for
		// more).
		if got < fl.records-1 && (in[2]%4 == 0 || in[2]%4 == 3) {
			t.Fatalf("damage that is not a torn tail lost records: %d of %d: %+v", got, fl.records, rep)
		}
		// After a clean stop every segment is sealed: one flipped byte or
		// bytes appended cannot lose records (a range zeroed can take a
		// record and the seal after it, as cutting the file short can;
		// the report says so then).
		if got < fl.records && killed == 0 && in[2]%2 == 0 && in[2]%4 != 2 {
			t.Fatalf("damage in a sealed log lost records: %d of %d: %+v", got, fl.records, rep)
		}
	})
}

func killed01(killed bool) int {
	if killed {
		return 1
	}
	return 0
}
