package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// DefaultCompactBytes is the size of the live segment that starts a
// compaction when Options.CompactBytes is zero.
const DefaultCompactBytes = 64 << 20

// Options configure a Log.
type Options struct {
	// CompactBytes is the size the live segment reaches before it is
	// compacted into a snapshot; zero means DefaultCompactBytes.
	CompactBytes int64
	// Report receives one line per noteworthy event: a cut tail, a
	// compaction that failed. Nil: none.
	Report func(string)
	// CloseCompactBytes: at a clean stop, a live segment of at least this
	// many bytes is compacted first, so that the next start loads a
	// snapshot instead of replaying it. Zero: never.
	CloseCompactBytes int64
	// OnFail is called once, from the writer that saw it, when the log
	// cannot write or sync: every later Wait fails, and the account in
	// memory is ahead of the disk, so the owner should stop the process.
	OnFail func(error)
}

// Account is what the log needs of the store: replaying a change record,
// writing a snapshot block by block and loading one, and loading the one
// JSON document a snapshot held before blocks existed.
type Account interface {
	Redo(change []byte) error
	// WriteBlocks passes the account's snapshot blocks to emit in order;
	// emit's error stops it.
	WriteBlocks(emit func(block []byte) error) error
	// LoadBlocks replaces the account with the blocks next returns until
	// io.EOF, or on any error leaves it untouched.
	LoadBlocks(next func() ([]byte, error)) error
	Load(doc []byte) error
}

// Stats are counters since Open.
type Stats struct {
	Records     uint64 // change records written
	Syncs       uint64 // fsyncs of the log (one per group of records)
	Bytes       int64  // log bytes written
	Compactions uint64 // snapshots written
}

// Log is the data directory's log; it implements store.Journal.
type Log struct {
	dir  string
	opts Options
	lock io.Closer

	mu          sync.Mutex
	flushed     sync.Cond // on mu: a flush ended
	pending     []byte    // frames recorded but not yet written
	frames      []int     // where each frame of pending starts
	spare       []byte    // a written buffer kept for reuse
	appended    uint64    // sequence number of the last record
	durable     uint64    // every record up to this one is fsynced
	flushing    bool      // a writer is writing and syncing
	err         error     // the first write or sync error: sticky
	seg         *os.File  // the live segment
	gen         uint64    // its generation
	segBytes    int64     // its size (the writes that succeeded)
	acct        Account   // set by Recover; compaction needs it
	compacting  bool
	nextCompact int64 // segBytes at which to compact
	closed      bool
	stats       Stats
	readOnly    string // why the start found the directory unwritable

	background sync.WaitGroup // a running compaction
}

// Open creates the data directory if needed and takes its lock; Recover
// must be called next, before the store takes writes.
func Open(dir string, opts Options) (*Log, error) {
	if opts.CompactBytes <= 0 {
		opts.CompactBytes = DefaultCompactBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	l := &Log{dir: dir, opts: opts, lock: lock, nextCompact: opts.CompactBytes}
	l.flushed.L = &l.mu
	return l, nil
}

// Record appends one change record and returns its sequence number; it does
// no I/O (the store calls it with its locks held).
func (l *Log) Record(change []byte) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	// After a failure nothing is written again (Wait answers the error), so
	// the record is not kept: memory must not grow with every later write.
	l.appended++
	if l.err == nil {
		l.frames = append(l.frames, len(l.pending))
		l.pending = appendRecord(l.pending, l.appended, change)
	}
	return l.appended
}

// Wait returns once record seq is durable. The first waiter to find no
// flush running writes and fsyncs everything recorded so far; the others
// wait for it, and their records ride along.
func (l *Log) Wait(seq uint64) error {
	for {
		b, done, err := l.claim(seq)
		if done {
			return err
		}
		werr := b.write()
		if failed := l.finish(b, werr); failed != nil && l.opts.OnFail != nil {
			l.opts.OnFail(failed)
		}
	}
}

// batch is what one flush writes.
type batch struct {
	f    *os.File
	buf  []byte
	upto uint64 // the last record's sequence number
	at   int64  // the segment offset the write begins at
	// seal: once buf is durable, seal the segment (a write of its own)
	seal bool
	// next: the next segment exists, and the seal says so
	next bool
}

func (b *batch) write() error {
	if err := b.writeRecords(); err != nil || !b.seal {
		return err
	}
	return b.writeSeal()
}

// writeRecords writes and fsyncs buf.
func (b *batch) writeRecords() error {
	if len(b.buf) > 0 {
		if _, err := b.f.Write(b.buf); err != nil {
			return err
		}
	}
	return b.f.Sync()
}

// writeSeal writes and fsyncs the seal, once buf is durable.
func (b *batch) writeSeal() error {
	if _, err := b.f.Write(sealFrame(b.upto, b.at+int64(len(b.buf)), b.next)); err != nil {
		return err
	}
	return b.f.Sync()
}

// size is what the batch adds to its segment.
func (b *batch) size() int64 {
	switch {
	case b.seal && b.next:
		return int64(len(b.buf)) + recHeaderSize + 1
	case b.seal:
		return int64(len(b.buf)) + recHeaderSize
	}
	return int64(len(b.buf))
}

// claim returns done when seq is durable (or the log has failed); otherwise
// it waits for a running flush, or makes the caller the flusher of
// everything pending.
func (l *Log) claim(seq uint64) (*batch, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		switch {
		case l.err != nil:
			return nil, true, l.err
		case l.durable >= seq:
			return nil, true, nil
		case !l.flushing:
			return l.take(), false, nil
		}
		l.flushed.Wait()
	}
}

// take makes the caller the flusher of everything pending. Call with mu held
// and no flush running.
func (l *Log) take() *batch {
	l.flushing = true
	b := &batch{f: l.seg, buf: l.pending, upto: l.appended, at: l.segBytes}
	stampWrite(b.buf, l.frames, b.at)
	l.pending, l.spare, l.frames = l.spare[:0], nil, l.frames[:0]
	return b
}

// finish ends a flush; it returns the error the first time the log fails.
// After the flush that sealed the live segment nothing is written again.
func (l *Log) finish(b *batch, err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.flushed.Broadcast()
	l.flushing = false
	if err != nil {
		return l.fail(err)
	}
	if b.seal {
		if b.f != nil {
			l.advance(b)
		}
		l.err = fmt.Errorf("data log in %s: closed", l.dir)
		return nil
	}
	l.advance(b)
	if cap(b.buf) <= 1<<20 {
		l.spare = b.buf[:0]
	}
	l.maybeCompact()
	return nil
}

// advance records that a flush made b durable. Call with mu held.
func (l *Log) advance(b *batch) {
	l.stats.Records += b.upto - l.durable
	l.stats.Syncs++
	l.stats.Bytes += b.size()
	l.durable = b.upto
	l.segBytes += b.size()
}

// fail makes err the log's sticky error; it returns err the first time.
// Call with mu held.
func (l *Log) fail(err error) error {
	if l.err != nil {
		return nil
	}
	l.err = fmt.Errorf("data log in %s: %w", l.dir, err)
	return l.err
}

// Stats returns the counters.
func (l *Log) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close waits for a running compaction, makes every record durable, seals
// the live segment (the mark of a clean stop) and releases the directory.
func (l *Log) Close() error {
	if l.ReadOnly() != "" {
		return l.closeFiles() // nothing was written, nothing to seal
	}
	last := l.shut()
	l.background.Wait()
	err := l.Wait(last)
	if err == nil && l.compactAtClose() {
		// Nothing is lost when it fails: the log still holds everything.
		if cerr := l.compactOnce(); cerr != nil && l.opts.Report != nil {
			l.opts.Report(fmt.Sprintf("compaction of %s at the stop failed (the next start replays the log, nothing is lost): %v", l.dir, cerr))
		}
	}
	if err == nil {
		err = l.sealLive()
	}
	return errors.Join(err, l.closeFiles())
}

// successor makes, at a clean stop, once the live segment's records are
// durable and before its seal, the next segment, whose head names the last
// record (upto): a start that finds the sealed segment shorter refuses
// instead of serving less, and the seal says the successor exists, so a
// start that finds neither refuses too. The next start writes on in it.
// When it cannot be made nothing is lost; the seal then says nothing of
// what follows. It reports whether the successor was made.
func (l *Log) successor(upto uint64) bool {
	f, err := createSegment(l.dir, l.liveGen()+1, headClean, upto)
	if err == nil {
		err = f.Close()
	}
	if err != nil && l.opts.Report != nil {
		l.opts.Report(fmt.Sprintf("at the clean stop of %s, its next log segment could not be made (nothing is lost): %v", l.dir, err))
	}
	return err == nil
}

// liveGen returns the live segment's generation.
func (l *Log) liveGen() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// sealLive writes what is pending, makes the next segment and seals the
// live one; no write follows (the log counts as closed from then on). A
// crash between the successor and the seal leaves the live segment whole
// but unsealed, which the next start seals.
func (l *Log) sealLive() error {
	b := l.claimAll()
	b.seal = true
	var err error
	if b.f != nil { // nil: never recovered (or read-only), nothing to seal
		err = b.writeRecords()
		if err == nil {
			b.next = l.successor(b.upto)
			err = b.writeSeal()
		}
	}
	return l.finish(b, err)
}

// shut stops compactions from starting and returns the last record.
// compactAtClose reports whether a clean stop compacts first.
func (l *Log) compactAtClose() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.opts.CloseCompactBytes > 0 && l.acct != nil && l.err == nil && l.seg != nil && l.segBytes >= l.opts.CloseCompactBytes
}

func (l *Log) shut() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return l.appended
}

func (l *Log) closeFiles() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var err error
	if l.seg != nil {
		err = l.seg.Close()
		l.seg = nil
	}
	if l.err == nil {
		// A request still running after the shutdown's grace period
		// gets an error, not a write to a closed file.
		l.err = fmt.Errorf("data log in %s: closed", l.dir)
	}
	return errors.Join(err, l.lock.Close())
}
