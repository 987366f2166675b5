//go:build unix

package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive lock on dir/LOCK, so that two servers never
// write one log; the lock ends with the process.
func lockDir(dir string) (io.Closer, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
	if unwritable(err) {
		// A read-only directory still gets its lock (flock needs no
		// write access); the start then finds it read-only.
		// Without a LOCK file there, the directory itself is locked.
		if f, err = os.Open(filepath.Join(dir, "LOCK")); errors.Is(err, os.ErrNotExist) {
			f, err = os.Open(dir)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another tableplay (%v)", dir, err)
	}
	return f, nil
}
