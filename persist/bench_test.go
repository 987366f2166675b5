package persist

import (
	"bytes"
	"testing"
)

// BenchmarkFraming is the CPU a record's framing costs, without I/O: the
// format before seals (length and one CRC) and record frames (sequence
// number, write offset and a CRC of the header as well), for a typical
// 200-byte insert record, 64 records a write.
func BenchmarkFraming(b *testing.B) {
	payload := bytes.Repeat([]byte(`{"op":"write"}`), 15)[:200]
	b.Run("legacy", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		var buf []byte
		for i := 0; i < b.N; i++ {
			if i%64 == 0 {
				buf = buf[:0]
			}
			buf = appendFrame(buf, payload)
		}
	})
	b.Run("record", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		var buf []byte
		var frames []int
		for i := 0; i < b.N; i++ {
			frames = append(frames, len(buf))
			buf = appendRecord(buf, uint64(i), payload)
			if len(frames) == 64 {
				stampWrite(buf, frames, 8)
				buf, frames = buf[:0], frames[:0]
			}
		}
	})
}
