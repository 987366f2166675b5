package persist

import (
	"errors"
	"fmt"
	"os"
)

// maybeCompact starts a background compaction when the live segment has
// grown past the threshold. Call with mu held.
func (l *Log) maybeCompact() {
	if l.compacting || l.closed || l.acct == nil || l.err != nil || l.segBytes < l.nextCompact {
		return
	}
	l.compacting = true
	l.background.Add(1)
	go l.compact()
}

func (l *Log) compact() {
	defer l.background.Done()
	err := l.compactOnce()
	if err != nil && l.opts.Report != nil {
		l.opts.Report(fmt.Sprintf("compaction of %s failed (the log keeps growing, nothing is lost): %v", l.dir, err))
	}
	l.compacted(err)
}

// compacted ends a compaction; after a failure the next try waits until the
// segment has grown by another threshold.
func (l *Log) compacted(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.compacting = false
	l.nextCompact = l.opts.CompactBytes
	if err != nil {
		l.nextCompact = l.segBytes + l.opts.CompactBytes
	} else {
		l.stats.Compactions++
	}
}

// compactOnce rotates to a new segment G, streams the account's snapshot
// (each table from one consistent view of its tree, so memory beyond the
// account is a block and the nodes writes copy meanwhile) while writes go
// on into G, and once the log holds everything the snapshot holds names it
// snapshot-G and removes what came before G. Every record before G is
// in the account already (records are made under the store's locks after
// the change), so the snapshot plus G and its successors is the account.
func (l *Log) compactOnce() error {
	gen, err := l.rotate()
	if err != nil {
		return err
	}
	// The snapshot may hold changes whose records are not durable yet: it
	// must not reach the disk before they do, so the log is waited for once
	// the last block is written, before the snapshot gets its name.
	err = writeSnapshot(l.dir, gen, l.acct.WriteBlocks, func() error { return l.Wait(l.last()) })
	if err != nil {
		return err
	}
	return removeBefore(l.dir, gen)
}

func (l *Log) last() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.appended
}

// rotate makes a new segment the live one. Everything recorded before goes
// to the old segment, which is fsynced, sealed and closed; a failure there is
// the log's failure (acknowledgements may be waiting on it). The new segment
// exists before the old one is sealed: a crash in between leaves it empty,
// and the old one's last write is then still the log's last.
func (l *Log) rotate() (uint64, error) {
	gen := l.nextGen()
	seg, err := createSegment(l.dir, gen, headRotate, 0)
	if err != nil {
		return 0, err
	}
	b := l.claimAll()
	b.seal, b.next = true, true
	// The old segment is closed whether or not its last write worked.
	err = errors.Join(b.write(), b.f.Close())
	if failed := l.switchTo(b, seg, gen, err); failed != nil && l.opts.OnFail != nil {
		l.opts.OnFail(failed)
	}
	return gen, err
}

func (l *Log) nextGen() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen + 1
}

// claimAll waits until no flush runs and makes the caller the flusher of
// everything pending.
func (l *Log) claimAll() *batch {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.flushing {
		l.flushed.Wait()
	}
	return l.take()
}

// switchTo ends a rotation's flush and installs the new segment; it returns
// the error the first time the log fails.
func (l *Log) switchTo(b *batch, seg *os.File, gen uint64, err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.flushed.Broadcast()
	l.flushing = false
	if err != nil {
		seg.Close()
		return l.fail(err)
	}
	l.advance(b)
	l.seg, l.gen, l.segBytes = seg, gen, headEnd
	return nil
}
