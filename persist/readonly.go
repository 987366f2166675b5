package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// probeName is the file a start writes to learn whether the directory
// takes writes; its suffix makes a leftover a temporary file, removed by
// the next start that can write.
const probeName = "write-probe" + tmpSuffix

// probeSize is what the probe writes: a page, the least a write of a seal
// or a new segment may need.
const probeSize = 4096

// unwritable reports whether err says the directory cannot take writes
// (a full disk or quota, a read-only file system, no permission), as
// opposed to a fault of a file.
func unwritable(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS) || errors.Is(err, os.ErrPermission)
}

// probe writes and fsyncs a page in dir and removes it. It returns why the
// directory cannot take writes, "" when it can, or another error.
func probe(dir string) (string, error) {
	name := filepath.Join(dir, probeName)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err == nil {
		_, err = f.Write(make([]byte, probeSize))
		if err == nil {
			err = f.Sync()
		}
		err = errors.Join(err, f.Close())
		// On a full disk a removal still works (it frees space).
		if rerr := os.Remove(name); err == nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	switch {
	case err == nil:
		return "", nil
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return fmt.Sprintf("the disk is full (%v)", err), nil
	case errors.Is(err, syscall.EROFS):
		return fmt.Sprintf("the file system is read-only (%v)", err), nil
	case errors.Is(err, os.ErrPermission):
		return fmt.Sprintf("the directory cannot be written (%v)", err), nil
	}
	return "", err
}

// readOnlyLine is the start's message for a directory that takes no
// writes: the account is served as it is, and every change is refused.
func readOnlyLine(dir, why string) string {
	return fmt.Sprintf("read-only: %s, so no change could be made durable; every change is refused and nothing on disk was changed (nothing acknowledged is lost). Free space on that disk (or make %s writable) and start again, or copy %s to a disk with room and start with --data pointing at the copy", why, dir, dir)
}

// Writable returns nil unless the start found the directory read-only or
// full, and then why. The store asks before it applies a change
// (store.WriteGate), so that a change the log cannot keep is refused, not
// made in memory only. (A log that fails later answers at Wait, and its
// owner stops the process; a closed one answers at Wait too.)
func (l *Log) Writable() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readOnly == "" {
		return nil
	}
	return l.err
}

// ReadOnly returns why the log was started read-only, "" when it was not.
func (l *Log) ReadOnly() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.readOnly
}

// startReadOnly installs the replayed account without a live segment:
// nothing is written, Record keeps nothing and Wait answers why.
func (l *Log) startReadOnly(acct Account, seq uint64, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acct = acct
	l.appended, l.durable = seq, seq
	l.readOnly = why
	l.err = fmt.Errorf("data log in %s: read-only: %s", l.dir, why)
}
