package persist

import (
	"os"
	"path/filepath"
)

// WriteFileDurable writes data to path so that a crash leaves either the
// old file or the whole new one: a temporary file beside it, an fsync, a
// rename over path and a sync of the directory (the new name is durable only
// then). The temporary file is removed when any step fails.
func WriteFileDurable(path string, data []byte, perm os.FileMode) error {
	tmp := path + tmpSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}
