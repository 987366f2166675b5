package persist

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The previous format's server made an empty segment at every start, and a
// start that found several segments compacted them in the background: one
// stopped (or killed, or failing to compact) before that finished leaves
// empty segments between ones that hold writes. Such a directory loaded
// before the sealed format and must still load.
func TestLegacyEmptySegmentsBetweenWritesLoad(t *testing.T) {
	dir := t.TempDir()
	recs, _ := legacyDir(t, dir)
	// log-1 holds the first half, log-2 and log-3 are empty, log-4 holds
	// the rest: the account is the same.
	whole, err := os.ReadFile(filepath.Join(dir, logName(1)))
	if err != nil {
		t.Fatal(err)
	}
	half := len(recs) / 2
	var first, second []byte
	for i, r := range recs {
		if i < half {
			first = appendFrame(first, r)
		} else {
			second = appendFrame(second, r)
		}
	}
	if !bytes.Equal(append(bytes.Clone(first), second...), whole) {
		t.Fatal("the legacy segment is not the frames of its records")
	}
	for gen, b := range map[uint64][]byte{1: first, 2: nil, 3: nil, 4: second} {
		if err := os.WriteFile(filepath.Join(dir, logName(gen)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, want := legacyDir(t, t.TempDir())
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	if !bytes.Equal(st.Snapshot(), want) || rep.Records != len(recs) {
		t.Fatalf("legacy directory with empty segments between: %+v", rep)
	}
}
