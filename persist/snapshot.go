package persist

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A snapshot file begins with snapshotMagic, then holds the account's
// blocks (core/store's WriteBlocks), each in a frame of frame.go: length,
// CRC-32C of length and payload, payload. Snapshots written before blocks
// existed are one frame holding the account's JSON document; read as a
// frame's length, the magic is larger than any file, so the two never mix.
var snapshotMagic = []byte("tpsnap\x00\x01")

// snapshotBuffer is the write buffer of a snapshot file.
const snapshotBuffer = 1 << 20

// writeSnapshot streams the account's blocks (write) into snapshot-gen: a
// temporary file, then ready (which waits until the log holds everything
// the blocks hold), an fsync and a rename, so that a crash leaves either no
// snapshot or a whole one.
func writeSnapshot(dir string, gen uint64, write func(emit func([]byte) error) error, ready func() error) error {
	final := filepath.Join(dir, snapshotName(gen))
	tmp := final + tmpSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, snapshotBuffer)
	_, err = w.Write(snapshotMagic)
	if err == nil {
		err = write(func(block []byte) error { return writeFrame(w, block) })
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = ready()
	}
	return commitTemp(f, tmp, final, err)
}

// writeFrame writes payload as one frame without copying it.
func writeFrame(w io.Writer, payload []byte) error {
	h := frameHeader(payload)
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// loadSnapshot loads snapshot-gen into acct block by block, or the JSON
// document of the format before blocks. Any damage — a bad frame, a block
// the account refuses, a snapshot without its end — is an error naming the
// file and the offset, and acct is left as it was.
func loadSnapshot(dir string, gen uint64, acct Account) error {
	name := snapshotName(gen)
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := readSnapshot(f, st.Size(), acct); err != nil {
		return fmt.Errorf("%s is damaged: %w; refusing to start, nothing was changed (the log holds only the changes since the snapshot, so starting without it would lose the rest). Restore the data directory from a copy", name, err)
	}
	return nil
}

// readSnapshot reads a snapshot file of size bytes from r into acct.
func readSnapshot(r io.Reader, size int64, acct Account) error {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(len(snapshotMagic))
	if !bytes.Equal(head, snapshotMagic) {
		return readDocument(br, size, acct)
	}
	br.Discard(len(snapshotMagic))
	fr := newFrameReader(br, size-int64(len(snapshotMagic)))
	base := int64(len(snapshotMagic))
	err := acct.LoadBlocks(func() ([]byte, error) {
		at := fr.offset
		b, err := fr.next()
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("the frame at offset %d: %w", base+at, err)
		}
		return b, err
	})
	if err != nil && !errors.Is(err, errTorn) && !errors.Is(err, errChecksum) {
		err = fmt.Errorf("before offset %d: %w", base+fr.offset, err)
	}
	return err
}

// readDocument reads the snapshot format before blocks: exactly one frame
// holding the account's JSON document.
func readDocument(r io.Reader, size int64, acct Account) error {
	fr := newFrameReader(r, size)
	doc, err := fr.next()
	if err == io.EOF {
		err = errTorn
	}
	if err == nil && fr.offset != size {
		err = fmt.Errorf("%d bytes after the snapshot", size-fr.offset)
	}
	if err != nil {
		return err
	}
	return acct.Load(doc)
}
