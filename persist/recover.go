package persist

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Cut is a log tail that was cut off at start: the unfinished last write of
// a server that did not stop cleanly, never acknowledged, not loaded.
type Cut struct {
	// File is the segment's file name within the data directory.
	File    string
	Offset  int64 // where the kept log ends
	Dropped int64 // bytes removed
	// Reason says why the tail was cut: a torn frame or a bad checksum.
	Reason string
	// Left: the directory is read-only, so the tail was left in place (and
	// not loaded); the next start that can write cuts it.
	Left bool
}

// Report says what Recover found.
type Report struct {
	// Dir is the data directory recovered.
	Dir      string
	Snapshot string // the snapshot loaded, "" for none
	Segments int    // log segments replayed
	Records  int    // change records replayed
	Cut      *Cut   // a torn tail that was cut off
	// Unclean: the log was not sealed, so the server before did not stop
	// cleanly (its unanswered writes may be missing).
	Unclean bool
	// ReadOnly, when set, says why the directory takes no writes: the
	// account was loaded and every change is refused.
	ReadOnly string
}

// String is one line for the server's log.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "data in %s: ", r.Dir)
	if r.Snapshot != "" {
		fmt.Fprintf(&b, "snapshot %s, ", r.Snapshot)
	}
	fmt.Fprintf(&b, "%d change(s) replayed from %d log segment(s)", r.Records, r.Segments)
	if r.Unclean {
		b.WriteString("; the last stop was not clean")
	}
	if c := r.Cut; c != nil && c.Left {
		fmt.Fprintf(&b, "; %d byte(s) at offset %d of %s (%s) taken as the last write, unfinished when the server stopped uncleanly (acknowledged only if the disk was damaged since): not loaded, and left in place for the next start that can write to cut", c.Dropped, c.Offset, c.File, c.Reason)
	} else if c != nil {
		fmt.Fprintf(&b, "; cut %d byte(s) at offset %d of %s (%s): taken as the last write, unfinished when the server stopped uncleanly (acknowledged only if the disk was damaged since), not loaded", c.Dropped, c.Offset, c.File, c.Reason)
	}
	if r.ReadOnly != "" {
		b.WriteString("; " + readOnlyLine(r.Dir, r.ReadOnly))
	}
	return b.String()
}

// Recover loads the account from the directory into acct — the newest
// snapshot, then every record of the segments from its generation on — cuts
// a torn tail off the log's last write, seals the segments a crash left
// unsealed, and opens a new segment for the records to come. Any other
// damage is an error and nothing is changed. A directory that takes no
// writes (a full disk, a read-only file system: a page written there first
// tells) is loaded without a change to any file — a torn tail is left in
// place, not loaded — and the log refuses every change (Writable); the
// report says why.
func (l *Log) Recover(acct Account) (Report, error) {
	rep := Report{Dir: l.dir}
	why, err := probe(l.dir)
	if err != nil {
		return rep, err
	}
	rep.ReadOnly = why
	d, err := listDir(l.dir)
	if err != nil {
		return rep, err
	}
	for _, name := range d.temporary {
		if why != "" {
			break // left for the next start that can write
		}
		if err := os.Remove(filepath.Join(l.dir, name)); err != nil {
			return rep, err
		}
	}
	var base uint64 // the snapshot's generation; 0 for none
	if n := len(d.snapshots); n > 0 {
		base = d.snapshots[n-1]
		if err := loadSnapshot(l.dir, base, acct); err != nil {
			return rep, err
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
	// The log's last write is in the last segment that holds one: only
	// there can a crash have left a torn tail.
	lastWrite, lastLegacy := -1, -1
	heads := make([]segmentHead, len(gens))
	for i, g := range gens {
		if heads[i], err = readHead(l.dir, g); err != nil {
			return rep, err
		}
		holds, legacy, err := holdsWrite(l.dir, g)
		if err != nil {
			return rep, err
		}
		if holds {
			lastWrite = i
		}
		if legacy {
			lastLegacy = i
		}
	}
	var seq sequence
	var unsealed []segmentEnd
	var reuse *segmentEnd
	var prev *replayer // the segment before, when its seal says this one follows
	for i, g := range gens {
		r := replayer{dir: l.dir, gen: g, acct: acct, seq: &seq, before: rep.Records, later: gens[i+1:], last: i >= lastWrite, legacyLater: i < lastLegacy,
			headDue: prev != nil, headOK: heads[i].ok, readOnly: why != ""}
		if i+1 < len(gens) {
			if h := heads[i+1]; h.ok && h.why != headRotate {
				r.sealedAt, r.sealedBy = &h.seq, logName(gens[i+1])
			}
		}
		end, err := r.replay()
		rep.Records += r.records
		if err != nil {
			return rep, err
		}
		if prev != nil && !heads[i].ok {
			return rep, prev.missingNext(true)
		}
		prev = nil
		if end.next {
			r.sealAt = end.sealAt
			prev = &r
		}
		if r.cut != nil {
			rep.Cut = r.cut
		}
		if i == len(gens)-1 && end.v3 && end.why == headClean && end.records == 0 && !end.sealed && end.end == headEnd {
			reuse = &end // a clean stop's successor: the log goes on in it
			continue
		}
		if !end.sealed && !end.legacy {
			unsealed = append(unsealed, end)
		}
	}
	rep.Segments = len(gens)
	if reuse != nil {
		rep.Segments-- // it holds nothing to replay
	}
	rep.Unclean = len(unsealed) > 0
	if l.last() != 0 {
		// Its sequence numbers would collide with the log's.
		return rep, fmt.Errorf("%s: the account recorded changes while the log was replayed", l.dir)
	}
	if why != "" {
		l.startReadOnly(acct, seq.last, why)
		if l.opts.Report != nil {
			l.opts.Report(rep.String())
		}
		return rep, nil
	}
	// The live segment exists before the seals are written, so that each
	// says a segment follows it. A crash in between leaves the segments
	// whole and unsealed, which the next start seals.
	var seg *os.File
	if reuse != nil {
		want = reuse.gen
		if err = takeUp(l.dir, want, seq.last); err == nil {
			seg, err = os.OpenFile(filepath.Join(l.dir, logName(want)), os.O_WRONLY|os.O_APPEND, 0)
		}
	} else {
		seg, err = createSegment(l.dir, want, headStart, seq.last)
	}
	if err != nil {
		return rep, l.diskFull(err)
	}
	for _, e := range unsealed {
		if err := seal(l.dir, e); err != nil {
			seg.Close()
			return rep, l.diskFull(err)
		}
	}
	if err := removeBefore(l.dir, base); err != nil {
		seg.Close()
		return rep, l.diskFull(err)
	}
	l.start(acct, seg, want, seq.last, len(gens) > 1 && (reuse == nil || len(gens) > 2))
	if rep.Cut != nil && l.opts.Report != nil {
		l.opts.Report(rep.String())
	}
	return rep, nil
}

// diskFull says, for a write at start that a full disk refused, that
// nothing is lost and what to do; other errors are returned as they are.
// Everything the log holds was read before these writes (a seal, a new
// segment), and a write cut short by the full disk is a torn tail the next
// start cuts: no acknowledged change is lost.
func (l *Log) diskFull(err error) error {
	if !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	return fmt.Errorf("%s: the disk is full (%v), so the log cannot take new changes; nothing is lost: every acknowledged change is in the directory and loads once there is room. Free space on that disk and start again, or copy %s to a disk with room and start with --data pointing at the copy", l.dir, err, l.dir)
}

// start installs the live segment and the last record's sequence number;
// compact asks for a compaction now (the replayed log spans several
// segments).
func (l *Log) start(acct Account, seg *os.File, gen, seq uint64, compact bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acct, l.seg, l.gen = acct, seg, gen
	l.segBytes = headEnd
	l.appended, l.durable = seq, seq
	if compact {
		l.nextCompact = 0
		l.maybeCompact()
	}
}

// sequence is the last record's sequence number, when known (legacy
// segments carry none).
type sequence struct {
	last  uint64
	known bool
}

// segmentEnd is how a replayed segment ends.
type segmentEnd struct {
	gen    uint64
	end    int64  // where its intact frames end (0: not even its magic)
	seq    uint64 // the last record's sequence number
	sealed bool
	legacy bool // the format before seals; never sealed, never written to
	// v3: the segment has (or is to have) a head; why is the head's reason
	// and records counts the records after it.
	v3      bool
	why     byte
	records int
	// next: its seal (at sealAt) says the next segment exists
	next   bool
	sealAt int64
}

// segmentHead is a segment's head, when it has an intact one.
type segmentHead struct {
	why byte
	seq uint64
	ok  bool
}

// readHead reads a segment's head; ok is false for a segment without an
// intact one (the format before heads, or damage the replay reports).
func readHead(dir string, gen uint64) (segmentHead, error) {
	f, err := os.Open(filepath.Join(dir, logName(gen)))
	if err != nil {
		return segmentHead{}, err
	}
	defer f.Close()
	b := make([]byte, headEnd)
	if n, _ := f.ReadAt(b, 0); int64(n) < headEnd || !bytes.HasPrefix(b, segmentMagic) {
		return segmentHead{}, nil
	}
	n, seq, write, sum, ok := parseHeader(b[len(segmentMagic):])
	payload := b[len(segmentMagic)+recHeaderSize:]
	if !ok || n != 1 || write != int64(len(segmentMagic)) || crc32.Checksum(payload, castagnoli) != sum || !validHead(payload[0]) {
		return segmentHead{}, nil
	}
	return segmentHead{why: payload[0], seq: seq, ok: true}, nil
}

func validHead(why byte) bool { return why == headStart || why == headClean || why == headRotate }

// holdsWrite reports whether a segment holds an intact frame: one that
// some write put there, which a crash cannot make; legacy, whether it is a
// segment of the format before the magic.
func holdsWrite(dir string, gen uint64) (holds, legacy bool, err error) {
	f, err := os.Open(filepath.Join(dir, logName(gen)))
	if err != nil {
		return false, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, false, err
	}
	// The usual case: an intact first frame after the magic (and the
	// head, which is no write: a segment is made before anything is
	// written to it).
	magic := make([]byte, len(segmentMagic))
	n, _ := f.ReadAt(magic, 0)
	v3 := n == len(magic) && bytes.Equal(magic, segmentMagic)
	first := int64(len(segmentMagic))
	if v3 {
		first = headEnd
	}
	head := make([]byte, first+recHeaderSize)
	if n, _ := f.ReadAt(head, 0); n == len(head) && (v3 || bytes.HasPrefix(head, magicNoHead)) {
		h := head[first:]
		if n, _, write, sum, ok := parseHeader(h); ok && write == first && n <= uint64(st.Size()-int64(len(head))) {
			payload := make([]byte, n)
			if _, err := f.ReadAt(payload, int64(len(head))); err != nil {
				return false, false, err
			}
			if crc32.Checksum(payload, castagnoli) == sum {
				return true, false, nil
			}
		}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return false, false, err
	}
	legacy = !bytes.HasPrefix(b, segmentMagic) && !bytes.HasPrefix(b, magicNoHead)
	after := int64(-1)
	if v3 {
		after = int64(len(segmentMagic)) // the head's write
	}
	_, holds = intactFrame(b, 0, after, 0, legacy)
	return holds, legacy && holds, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// replayer feeds one segment's records to the account.
type replayer struct {
	dir    string
	gen    uint64
	acct   Account
	seq    *sequence
	before int      // records replayed from the segments before
	later  []uint64 // the segments after it
	last   bool     // no segment after it holds a write
	// legacyLater: a segment of the format before the magic holding a
	// write follows; only its server left empty segments behind.
	legacyLater bool
	// sealedAt, when set, is the record the segment ends with, as the head
	// of the next segment (sealedBy) says: it was made once this one's
	// records were durable, so this one cannot lack any of them (a crash
	// may have left its seal unwritten or torn: that loses nothing).
	sealedAt *uint64
	sealedBy string
	// readOnly: the directory takes no writes; a torn tail is left.
	readOnly bool
	// headDue: the seal of the segment before says this one was made,
	// head and all, before it; headOK: it has an intact head. A segment
	// due a head that lacks it is damage, never a torn tail.
	headDue, headOK bool
	// sealAt: where its seal is, once replayed
	sealAt int64

	records int
	cut     *Cut
}

func (r *replayer) name() string { return logName(r.gen) }

// replay reads the segment. Damage in the log's last write is a torn tail:
// it is cut off (the file truncated and fsynced). Any other damage, a
// sealed segment with more after its seal, an unsealed one followed by
// writes, or records out of sequence stop the start.
func (r *replayer) replay() (segmentEnd, error) {
	end := segmentEnd{gen: r.gen}
	mode := os.O_RDWR
	if r.readOnly {
		mode = os.O_RDONLY
	}
	f, err := os.OpenFile(filepath.Join(r.dir, r.name()), mode, 0)
	if err != nil {
		return end, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return end, err
	}
	size := st.Size()
	head := make([]byte, len(segmentMagic))
	n, _ := io.ReadFull(f, head)
	switch {
	case bytes.Equal(head, segmentMagic):
		end.v3 = true
		err = r.records2(f, size, &end)
	case bytes.Equal(head, magicNoHead):
		err = r.records2(f, size, &end)
	case size == 0 && r.legacyLater:
		// The previous format's server created a segment at every start
		// and left it empty when nothing was written before it stopped
		// or its compaction rotated; a legacy segment after it proves
		// it is one of those, not a segment of this format cut short.
		end.legacy = true
	case size <= int64(len(segmentMagic)) && (bytes.HasPrefix(segmentMagic, head[:n]) || bytes.HasPrefix(magicNoHead, head[:n]) || allZero(head[:n])):
		if !r.last {
			return end, r.refuse(0, size, errTorn, "newer segments hold writes")
		}
		if r.sealedAt != nil {
			return end, r.refuse(0, size, errTorn, r.sealedBy+" was made after this segment was sealed")
		}
		if r.headDue {
			return end, r.headless(0, size, errTorn)
		}
		end.v3 = true // sealed anew in this format
	default:
		if r.headDue {
			return end, r.headless(0, size, fmt.Errorf("%w: no segment magic", errFraming))
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return end, err
		}
		end.legacy = true
		err = r.legacyRecords(f, size, &end)
	}
	end.seq = r.seq.last
	return end, err
}

// records2 replays a segment of record frames.
func (r *replayer) records2(f *os.File, size int64, end *segmentEnd) error {
	fr := newRecordReader(f, size)
	for {
		at := fr.offset
		fm, err := fr.next()
		switch {
		case err == io.EOF:
			end.end = at
			if end.next && len(r.later) == 0 {
				r.sealAt = end.sealAt
				return r.missingNext(false)
			}
			if !end.sealed && r.sealedAt != nil && r.seq.last != *r.sealedAt {
				return fmt.Errorf("%s ends at offset %d without its seal, after record %d, but %s was made once it was sealed after record %d: it was cut short, and %d acknowledged change(s) are missing; refusing to start, nothing was changed. %s", r.name(), at, r.seq.last, r.sealedBy, *r.sealedAt, *r.sealedAt-min(*r.sealedAt, r.seq.last), r.howTo(at))
			}
			if !end.sealed && !r.last {
				return fmt.Errorf("%s ends at offset %d without its seal while newer segments hold writes: it was cut short; refusing to start. %s", r.name(), at, r.howTo(at))
			}
			return nil
		case end.sealed && err == nil:
			return r.refuse(at, size, errors.New("a record after the segment's seal"), "a sealed segment is never written again")
		case errors.Is(err, errTorn) || errors.Is(err, errChecksum) || errors.Is(err, errFraming):
			// Bytes after a seal hold nothing acknowledged: cutting
			// them loses nothing, unless they hold a later write.
			return r.damaged(f, at, size, err, false, end)
		case err != nil:
			return fmt.Errorf("%s: %v", r.name(), err)
		}
		if end.v3 && at == int64(len(segmentMagic)) {
			// The head: why the segment was made, after which record.
			if len(fm.payload) != 1 || !validHead(fm.payload[0]) {
				return r.refuse(at, size, fmt.Errorf("%w: the segment does not begin with its head", errFraming), "a segment's first frame is its head")
			}
			end.why = fm.payload[0]
			if end.why != headRotate {
				if r.seq.known && fm.seq != r.seq.last {
					return r.refuse(at, size, fmt.Errorf("%w: the head follows record %d, the segments before end at %d", errFraming, fm.seq, r.seq.last), "records are missing")
				}
				r.seq.last, r.seq.known = fm.seq, true
			}
			continue
		}
		want := r.seq.last + 1
		if fm.seal() {
			want--
		}
		if r.seq.known && fm.seq != want {
			return r.refuse(at, size, fmt.Errorf("%w: number %d where %d was due", errFraming, fm.seq, want), "records are missing or repeated")
		}
		r.seq.last, r.seq.known = fm.seq, true
		if fm.seal() {
			end.sealed, end.next, end.sealAt = true, fm.sealsNext(), at
			continue
		}
		if err := r.acct.Redo(fm.payload); err != nil {
			return fmt.Errorf("%s, record at offset %d: %v", r.name(), at, err)
		}
		r.records++
		end.records++
	}
}

// legacyRecords replays a segment of the format before seals and sequence
// numbers.
func (r *replayer) legacyRecords(f *os.File, size int64, end *segmentEnd) error {
	r.seq.known = false
	fr := newFrameReader(f, size)
	for {
		at := fr.offset
		rec, err := fr.next()
		switch {
		case err == io.EOF:
			end.end = at
			return nil
		case errors.Is(err, errTorn) || errors.Is(err, errChecksum):
			return r.damaged(f, at, size, err, true, end)
		case err != nil:
			return fmt.Errorf("%s: %v", r.name(), err)
		}
		if err := r.acct.Redo(rec); err != nil {
			return fmt.Errorf("%s, record at offset %d: %v", r.name(), at, err)
		}
		r.records++
	}
}

// damaged decides what a bad frame at offset at is: a torn tail when it is
// in the log's last write (no later segment holds a write, and no intact
// frame of a later write follows it), which is cut off; else corruption.
func (r *replayer) damaged(f *os.File, at, size int64, why error, legacy bool, end *segmentEnd) error {
	if r.headDue && !r.headOK {
		return r.headless(at, size, why)
	}
	if !r.last {
		return r.refuse(at, size, why, "newer segments hold writes")
	}
	if r.sealedAt != nil && !legacy && !end.sealed && r.seq.last != *r.sealedAt {
		// Only its seal may be torn: the records were durable first.
		return r.refuse(at, size, why, fmt.Sprintf("%s was made after this segment's records up to %d were durable", r.sealedBy, *r.sealedAt))
	}
	rest := make([]byte, size-at)
	if _, err := f.ReadAt(rest, at); err != nil {
		return fmt.Errorf("%s: %v", r.name(), err)
	}
	// A later write's frame carries a later number: a stale frame left by a
	// deleted segment (file systems may show old blocks after a crash)
	// proves nothing.
	minSeq := uint64(0)
	if r.seq.known {
		minSeq = r.seq.last + 1
	}
	if later, ok := intactFrame(rest[1:], at+1, at, minSeq, legacy); ok {
		return r.refuse(at, size, why, fmt.Sprintf("an intact record of a later write follows at offset %d", later))
	}
	r.cut = &Cut{File: r.name(), Offset: at, Dropped: size - at, Reason: why.Error(), Left: r.readOnly}
	end.end = at
	if r.readOnly {
		return nil
	}
	if err := f.Truncate(at); err != nil {
		return err
	}
	return f.Sync()
}

// missingNext is the error for a segment whose seal says the next segment
// exists, when it does not (or, present, has no intact head): the changes
// it held are missing, how many is unknown.
func (r *replayer) missingNext(present bool) error {
	next := logName(r.gen + 1)
	what := "is missing"
	if present {
		what = "has no intact head"
	}
	return fmt.Errorf("%s: the seal of %s says %s was made before it, and %s %s: the changes it held (if any) are lost or damaged; refusing to start, nothing was changed. Restore %s from a copy; or, to start with the changes before it alone, copy %s somewhere safe, then truncate %s to %d bytes (truncate -s %d %s), which takes its seal off%s",
		r.dir, r.name(), next, next, what, next, r.dir, r.name(), r.sealAt, r.sealAt, filepath.Join(r.dir, r.name()), r.dropLater())
}

// headless refuses a segment that lacks the head the seal before it says
// it was made with.
func (r *replayer) headless(at, size int64, why error) error {
	return r.refuse(at, size, why, fmt.Sprintf("the seal of %s says this segment was made, head and all, before it", logName(r.gen-1)))
}

// refuse is the error for damage that is not a torn tail; nothing is
// changed.
func (r *replayer) refuse(at, size int64, why error, proof string) error {
	return fmt.Errorf("%s is damaged at offset %d of %d (%v), and it is not a torn tail (%s): refusing to start, nothing was changed. %s", r.name(), at, size, why, proof, r.howTo(at))
}

// howTo says how to start with what is intact.
func (r *replayer) howTo(at int64) string {
	return fmt.Sprintf("The %d change(s) before offset %d are intact; to start with them alone (losing every change after it), copy %s somewhere safe, then truncate %s to %d bytes (truncate -s %d %s)%s. Or restore the directory from a copy.",
		r.before+r.records, at, r.dir, r.name(), at, at, filepath.Join(r.dir, r.name()), r.dropLater())
}

// dropLater is the advice to delete the segments after this one.
func (r *replayer) dropLater() string {
	var later []string
	for _, g := range r.later {
		later = append(later, logName(g))
	}
	if len(later) == 0 {
		return ""
	}
	return " and delete " + strings.Join(later, ", ")
}

// takeUp marks the segment a clean stop made as written on: its head is
// rewritten in place (one sector, fsynced) from headClean to headStart. A
// segment whose run was killed then never looks like an unused one, even
// cut back to its head: the start that finds it says the last stop was not
// clean.
func takeUp(dir string, gen, seq uint64) error {
	f, err := os.OpenFile(filepath.Join(dir, logName(gen)), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.WriteAt(headFrame(headStart, seq), int64(len(segmentMagic))); err != nil {
		return err
	}
	return f.Sync()
}

// seal ends a segment a crash left unsealed: the magic if it lacks it, and
// a seal after its intact frames, each step fsynced.
func seal(dir string, e segmentEnd) error {
	f, err := os.OpenFile(filepath.Join(dir, logName(e.gen)), os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	at, buf := e.end, []byte(nil)
	if (e.v3 && at < headEnd) || at < int64(len(segmentMagic)) {
		// Made (or begun) in this format but its head is not intact:
		// rewritten as a segment of no records.
		at, buf = 0, append(bytes.Clone(segmentMagic), headFrame(headStart, e.seq)...)
	}
	if err := f.Truncate(at); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	// The live segment exists by now: the seal says a segment follows.
	buf = append(bytes.Clone(buf), sealFrame(e.seq, at+int64(len(buf)), true)...)
	if _, err := f.WriteAt(buf, at); err != nil {
		return err
	}
	return f.Sync()
}
