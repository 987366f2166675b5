package persist

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// A frame is a 12-byte header — the payload length (uint64, little-endian)
// and the CRC-32C (Castagnoli) of those 8 length bytes followed by the
// payload — then the payload. The checksum covers the length, so a damaged
// length is caught before it is trusted.
const headerSize = 12

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendFrame appends payload as one frame to dst.
func appendFrame(dst, payload []byte) []byte {
	h := frameHeader(payload)
	return append(append(dst, h[:]...), payload...)
}

// frameHeader is the header of payload's frame.
func frameHeader(payload []byte) [headerSize]byte {
	var h [headerSize]byte
	binary.LittleEndian.PutUint64(h[:8], uint64(len(payload)))
	sum := crc32.Update(crc32.Checksum(h[:8], castagnoli), castagnoli, payload)
	binary.LittleEndian.PutUint32(h[8:], sum)
	return h
}

// errTorn and errChecksum say why a log ends where it does.
var (
	errTorn     = errors.New("incomplete record (torn write)")
	errChecksum = errors.New("checksum mismatch")
)

// frameReader reads frames from a file of known size.
type frameReader struct {
	r      *bufio.Reader
	offset int64 // of the next frame
	size   int64
}

func newFrameReader(r io.Reader, size int64) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 1<<16), size: size}
}

// next returns the next payload; io.EOF exactly at the end of the file,
// errTorn for a frame the file ends inside, errChecksum for a frame whose
// checksum fails. A length is believed only when the rest of the file can
// hold it, so a damaged header never causes a large allocation.
func (f *frameReader) next() ([]byte, error) {
	if f.offset == f.size {
		return nil, io.EOF
	}
	if f.size-f.offset < headerSize {
		return nil, errTorn
	}
	var h [headerSize]byte
	if _, err := io.ReadFull(f.r, h[:]); err != nil {
		return nil, fmt.Errorf("reading at %d: %w", f.offset, err)
	}
	n := binary.LittleEndian.Uint64(h[:8])
	if n > uint64(f.size-f.offset-headerSize) {
		// Either the write was cut short or the length is damaged; the
		// checksum cannot be checked without the payload.
		return nil, errTorn
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(f.r, payload); err != nil {
		return nil, fmt.Errorf("reading at %d: %w", f.offset, err)
	}
	sum := crc32.Update(crc32.Checksum(h[:8], castagnoli), castagnoli, payload)
	if sum != binary.LittleEndian.Uint32(h[8:]) {
		return nil, errChecksum
	}
	f.offset += headerSize + int64(n)
	return payload, nil
}
