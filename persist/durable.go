package persist

import (
	"os"
	"path/filepath"
)

// WriteFileDurable replaces path with data so that a crash leaves either
// the old file or the whole new one: it writes path.tmp, fsyncs it, renames
// it over path and syncs the directory so the new name is durable too. On
// failure the temporary file is removed (a crash may still leave one, which
// Recover removes from a data directory).
func WriteFileDurable(path string, data []byte, perm os.FileMode) error {
	tmp := path + tmpSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return commitTemp(f, tmp, path, err)
}

// commitTemp finishes a temporary file f (named tmp) whose writing ended
// with err: an fsync, a close and a rename to final, then a sync of the
// directory. On any error tmp is removed and the error returned.
func commitTemp(f *os.File, tmp, final string, err error) error {
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(final))
}
