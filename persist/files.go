package persist

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// File names: a generation is a decimal number, zero-padded so that names
// sort as numbers do.
const (
	logPrefix      = "log-"
	snapshotPrefix = "snapshot-"
	tmpSuffix      = ".tmp"
)

func logName(gen uint64) string      { return fmt.Sprintf("%s%020d", logPrefix, gen) }
func snapshotName(gen uint64) string { return fmt.Sprintf("%s%020d", snapshotPrefix, gen) }

// dirFiles is what a data directory holds, by generation.
type dirFiles struct {
	logs, snapshots []uint64 // ascending
	temporary       []string // leftovers of an interrupted snapshot write
}

func listDir(dir string) (dirFiles, error) {
	var d dirFiles
	entries, err := os.ReadDir(dir)
	if err != nil {
		return d, err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, tmpSuffix) {
			d.temporary = append(d.temporary, name)
			continue
		}
		for _, k := range []struct {
			prefix string
			dst    *[]uint64
		}{{logPrefix, &d.logs}, {snapshotPrefix, &d.snapshots}} {
			if rest, ok := strings.CutPrefix(name, k.prefix); ok && len(rest) == 20 {
				if gen, err := strconv.ParseUint(rest, 10, 64); err == nil && gen > 0 {
					*k.dst = append(*k.dst, gen)
				}
			}
		}
	}
	sort.Slice(d.logs, func(i, j int) bool { return d.logs[i] < d.logs[j] })
	sort.Slice(d.snapshots, func(i, j int) bool { return d.snapshots[i] < d.snapshots[j] })
	return d, nil
}

// createSegment creates a log segment holding its magic and its head (made
// for why, after record seq) and makes it and its name durable.
func createSegment(dir string, gen uint64, why byte, seq uint64) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, logName(gen)), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.Write(append(bytes.Clone(segmentMagic), headFrame(why, seq)...))
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// syncDir makes the directory's entries (created, renamed, removed files)
// durable. Windows cannot sync a directory (and does not need to: its file
// system journals names).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// removeBefore removes the segments and snapshots older than gen, which a
// snapshot of generation gen replaces.
func removeBefore(dir string, gen uint64) error {
	d, err := listDir(dir)
	if err != nil {
		return err
	}
	for _, g := range d.logs {
		if g < gen {
			if err := os.Remove(filepath.Join(dir, logName(g))); err != nil {
				return err
			}
		}
	}
	for _, g := range d.snapshots {
		if g < gen {
			if err := os.Remove(filepath.Join(dir, snapshotName(g))); err != nil {
				return err
			}
		}
	}
	return syncDir(dir)
}
