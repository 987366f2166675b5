package persist

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// A log segment begins with segmentMagic; segments written before it
// existed hold bare frames (frame.go) and are read as legacy segments.
// Read as a legacy frame's length, the magic is larger than any file.
//
// A segment of this format (segmentMagic) begins, right after the magic,
// with a head: a frame of a one-byte payload saying why the segment was
// made, numbered with the last record before it. A head made once every
// record before it was durable (headStart, headClean) says what the log
// held then, so a predecessor that lost its tail is found even when nothing
// else follows (its seal alone may be missing or torn: it is written after
// the head). Segments of the format before heads (magicNoHead) still load.
var (
	segmentMagic = []byte("tplog\x00\x03\n")
	magicNoHead  = []byte("tplog\x00\x02\n")
)

// Why a segment was made, its head's payload.
const (
	headStart  = 's' // at start (made, or a clean stop's taken up), once every record before it was durable
	headClean  = 'c' // at a clean stop, once the live segment's records were durable, before its seal
	headRotate = 'r' // by a compaction, before the old segment was sealed
)

// headEnd is where a segment's head ends and its records begin.
var headEnd = int64(len(segmentMagic)) + recHeaderSize + 1

// headFrame is a segment's head: made for why, after record seq.
func headFrame(why byte, seq uint64) []byte {
	b := appendRecord(nil, seq, []byte{why})
	stampWrite(b, []int{0}, int64(len(segmentMagic)))
	return b
}

// A record frame is a 32-byte header, then the payload:
//
//	[0:8]   payload length (uint64, little-endian); 0 or 1 for a seal
//	[8:16]  sequence number: the record's, or for a seal the last record's
//	[16:24] the segment offset where the write holding the frame began
//	[24:28] CRC-32C of the payload
//	[28:32] CRC-32C of bytes 0..27
//
// Writes are sequential: a flush starts only after the one before it was
// fsynced. So a frame whose write began after a damaged frame proves the
// damaged frame's write was durable, and the damage is not a torn tail. A
// seal is a write of its own, made once the segment's records are durable
// (on rotation, on a clean stop, at start), so any damage before a seal is
// corruption, and a sealed segment cannot lose its tail unnoticed; a seal
// of payload sealNext also says the next segment exists.
const recHeaderSize = 32

// errFraming is a frame with good checksums in the wrong place: a sequence
// number out of order or a write that begins after the frame.
var errFraming = errors.New("record out of sequence")

// appendRecord appends a record frame whose write offset and header
// checksum stampWrite fills in when its write is known.
func appendRecord(dst []byte, seq uint64, payload []byte) []byte {
	var h [recHeaderSize]byte
	binary.LittleEndian.PutUint64(h[0:], uint64(len(payload)))
	binary.LittleEndian.PutUint64(h[8:], seq)
	binary.LittleEndian.PutUint32(h[24:], crc32.Checksum(payload, castagnoli))
	return append(append(dst, h[:]...), payload...)
}

// stampWrite records that the frames starting at offsets frames of buf are
// written at segment offset at, and seals their headers.
func stampWrite(buf []byte, frames []int, at int64) {
	for _, f := range frames {
		h := buf[f : f+recHeaderSize]
		binary.LittleEndian.PutUint64(h[16:], uint64(at))
		binary.LittleEndian.PutUint32(h[28:], crc32.Checksum(h[:28], castagnoli))
	}
}

// sealNext is the payload of a seal written once the next segment exists
// (made and fsynced, its name too): such a segment cannot be the log's
// newest, so a start that finds nothing after it, or a next segment without
// its head, refuses. A seal of no payload says nothing of what follows. A
// record's payload is a JSON object, never this one byte.
const sealNext = '>'

// sealFrame is the seal written at segment offset at after record seq;
// next says the next segment exists.
func sealFrame(seq uint64, at int64, next bool) []byte {
	var payload []byte
	if next {
		payload = []byte{sealNext}
	}
	b := appendRecord(nil, seq, payload)
	stampWrite(b, []int{0}, at)
	return b
}

// frame is one record frame read back.
type frame struct {
	seq     uint64
	write   int64 // offset of the write that held it
	payload []byte
}

func (f frame) seal() bool {
	return len(f.payload) == 0 || len(f.payload) == 1 && f.payload[0] == sealNext
}

// sealsNext reports whether a seal says the next segment exists.
func (f frame) sealsNext() bool { return len(f.payload) == 1 && f.payload[0] == sealNext }

// parseHeader checks a header; n is the payload length.
func parseHeader(h []byte) (n, seq uint64, write int64, sum uint32, ok bool) {
	if crc32.Checksum(h[:28], castagnoli) != binary.LittleEndian.Uint32(h[28:]) {
		return 0, 0, 0, 0, false
	}
	return binary.LittleEndian.Uint64(h), binary.LittleEndian.Uint64(h[8:]),
		int64(binary.LittleEndian.Uint64(h[16:])), binary.LittleEndian.Uint32(h[24:]), true
}

// recordReader reads record frames from a segment of known size, after its
// magic.
type recordReader struct {
	r      *bufio.Reader
	offset int64 // of the next frame
	size   int64
}

func newRecordReader(r io.Reader, size int64) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 1<<16), offset: int64(len(segmentMagic)), size: size}
}

// next returns the next frame; io.EOF exactly at the end of the file,
// errTorn for a frame the file ends inside, errChecksum for a frame whose
// header or payload fails its checksum, errFraming for a frame whose write
// begins after it. A length is believed only when the file can hold it.
func (f *recordReader) next() (frame, error) {
	if f.offset == f.size {
		return frame{}, io.EOF
	}
	if f.size-f.offset < recHeaderSize {
		return frame{}, errTorn
	}
	var h [recHeaderSize]byte
	if _, err := io.ReadFull(f.r, h[:]); err != nil {
		return frame{}, fmt.Errorf("reading at %d: %w", f.offset, err)
	}
	n, seq, write, sum, ok := parseHeader(h[:])
	if !ok {
		return frame{}, errChecksum
	}
	if n > uint64(f.size-f.offset-recHeaderSize) {
		return frame{}, errTorn
	}
	if write < int64(len(segmentMagic)) || write > f.offset {
		return frame{}, errFraming
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(f.r, payload); err != nil {
		return frame{}, fmt.Errorf("reading at %d: %w", f.offset, err)
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return frame{}, errChecksum
	}
	f.offset += recHeaderSize + int64(n)
	return frame{seq: seq, write: write, payload: payload}, nil
}

// intactFrame looks through b, the segment's bytes from offset base on,
// for an intact frame, numbered minSeq or later, of a write that began after
// offset after; legacy segments are also searched for intact legacy frames,
// which carry no write offset. It returns the offset of the first one found.
// After a damaged frame, finding one proves the damage is not a torn tail.
//
// The bodies it checksums are bounded by a budget of four times b: a file
// made to hold a plausible header at every offset would otherwise cost time
// quadratic in its size. Past the budget the search answers as if it had
// found a frame, so such a file stops the start and nothing is cut.
func intactFrame(b []byte, base, after int64, minSeq uint64, legacy bool) (int64, bool) {
	budget := 4*int64(len(b)) + 1<<20
	for i := range b {
		at := base + int64(i)
		if r := b[i:]; len(r) >= recHeaderSize {
			n, seq, write, sum, ok := parseHeader(r)
			if ok && seq >= minSeq && n <= uint64(len(r)-recHeaderSize) && write > after && write <= at && write >= int64(len(segmentMagic)) {
				if budget -= int64(n); budget < 0 || crc32.Checksum(r[recHeaderSize:recHeaderSize+int(n)], castagnoli) == sum {
					return at, true
				}
			}
		}
		if legacy {
			found, cost := legacyFrameAt(b[i:])
			if budget -= cost; found || budget < 0 {
				return at, true
			}
		}
	}
	return 0, false
}

// legacyFrameAt reports whether b begins with an intact legacy frame, and
// how many bytes it checksummed to tell.
func legacyFrameAt(b []byte) (bool, int64) {
	if len(b) < headerSize {
		return false, 0
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-headerSize) {
		return false, 0
	}
	sum := crc32.Update(crc32.Checksum(b[:8], castagnoli), castagnoli, b[headerSize:headerSize+int(n)])
	return sum == binary.LittleEndian.Uint32(b[8:]), int64(n)
}
