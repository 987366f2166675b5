package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Cut is a log tail that was cut off at start: its records were never
// acknowledged as durable, and are not loaded.
type Cut struct {
	// File is the segment's file name within the data directory.
	File    string
	Offset  int64 // where the kept log ends
	Dropped int64 // bytes removed
	// Reason says why the tail was cut: a torn frame or a bad checksum.
	Reason string
}

// Report says what Recover found.
type Report struct {
	// Dir is the data directory recovered.
	Dir      string
	Snapshot string // the snapshot loaded, "" for none
	Segments int    // log segments replayed
	Records  int    // change records replayed
	Cut      *Cut   // a torn or corrupt tail that was cut off
}

// String is one line for the server's log.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "data in %s: ", r.Dir)
	if r.Snapshot != "" {
		fmt.Fprintf(&b, "snapshot %s, ", r.Snapshot)
	}
	fmt.Fprintf(&b, "%d change(s) replayed from %d log segment(s)", r.Records, r.Segments)
	if c := r.Cut; c != nil {
		fmt.Fprintf(&b, "; cut %d byte(s) at offset %d of %s (%s): writes never acknowledged, not loaded", c.Dropped, c.Offset, c.File, c.Reason)
	}
	return b.String()
}

// Recover loads the account from the directory into acct — the newest
// snapshot, then every record of the segments from its generation on — cuts a
// torn or corrupt tail off the newest segment, and opens a new segment for
// the records to come. Any other damage is an error and nothing is removed.
func (l *Log) Recover(acct Account) (Report, error) {
	rep := Report{Dir: l.dir}
	d, err := listDir(l.dir)
	if err != nil {
		return rep, err
	}
	for _, name := range d.temporary {
		if err := os.Remove(filepath.Join(l.dir, name)); err != nil {
			return rep, err
		}
	}
	var base uint64 // the snapshot's generation; 0 for none
	if n := len(d.snapshots); n > 0 {
		base = d.snapshots[n-1]
		doc, err := readSnapshot(l.dir, base)
		if err != nil {
			return rep, err
		}
		if err := acct.Load(doc); err != nil {
			return rep, fmt.Errorf("%s: %v", snapshotName(base), err)
		}
		rep.Snapshot = snapshotName(base)
	}
	var gens []uint64
	for _, g := range d.logs {
		if g >= base {
			gens = append(gens, g)
		}
	}
	want := max(base, 1)
	for _, g := range gens {
		if g != want {
			return rep, fmt.Errorf("%s: %s is missing", l.dir, logName(want))
		}
		want++
	}
	if base > 0 && len(gens) == 0 {
		return rep, fmt.Errorf("%s: %s is missing", l.dir, logName(base))
	}
	for i, g := range gens {
		n, cut, err := replaySegment(l.dir, g, acct, i == len(gens)-1)
		rep.Records += n
		if err != nil {
			return rep, err
		}
		rep.Cut = cut
	}
	rep.Segments = len(gens)
	if err := removeBefore(l.dir, base); err != nil {
		return rep, err
	}
	seg, err := createSegment(l.dir, want)
	if err != nil {
		return rep, err
	}
	l.start(acct, seg, want, len(gens) > 1)
	if rep.Cut != nil && l.opts.Report != nil {
		l.opts.Report(rep.String())
	}
	return rep, nil
}

// start installs the live segment; compact asks for a compaction now (the
// replayed log spans several segments).
func (l *Log) start(acct Account, seg *os.File, gen uint64, compact bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acct, l.seg, l.gen = acct, seg, gen
	if compact {
		l.nextCompact = 0
		l.maybeCompact()
	}
}

// replaySegment feeds a segment's records to acct. In the last segment a
// torn or corrupt frame ends the log: the file is truncated there and the
// cut returned. Anywhere else it is an error.
func replaySegment(dir string, gen uint64, acct Account, last bool) (int, *Cut, error) {
	name := logName(gen)
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	fr := newFrameReader(f, st.Size())
	n := 0
	for {
		at := fr.offset
		rec, err := fr.next()
		if err == io.EOF {
			return n, nil, nil
		}
		if errors.Is(err, errTorn) || errors.Is(err, errChecksum) {
			if !last {
				return n, nil, fmt.Errorf("%s is damaged at offset %d (%v) and newer segments follow it: refusing to start; move %s aside to start empty", name, at, err, dir)
			}
			cut := &Cut{File: name, Offset: at, Dropped: st.Size() - at, Reason: err.Error()}
			if err := f.Truncate(at); err != nil {
				return n, nil, err
			}
			return n, cut, f.Sync()
		}
		if err != nil {
			return n, nil, fmt.Errorf("%s: %v", name, err)
		}
		if err := acct.Redo(rec); err != nil {
			return n, nil, fmt.Errorf("%s, record at offset %d: %v", name, at, err)
		}
		n++
	}
}
