package persist

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
)

// A torn last write followed by an intact frame that carries an earlier
// number (old blocks of a deleted segment, which some file systems show
// after a crash) is still a torn tail: the frame proves no later write.
func TestStaleFrameAfterTornTailIsCut(t *testing.T) {
	dir, seg, _, damaged, last := tornLastWrite(t)
	stale := appendRecord(nil, 3, []byte(`{"stale":true}`))
	stampWrite(stale, []int{0}, int64(len(damaged)))
	damaged = append(damaged, stale...)
	if err := os.WriteFile(seg, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	l, st, rep := open(t, dir, Options{})
	defer l.Close()
	if rep.Cut == nil || rep.Cut.Offset != last {
		t.Fatalf("report %+v cut %+v, want the torn last write at %d cut", rep, rep.Cut, last)
	}
	if n, _ := st.Count("Orders"); n != 19 {
		t.Errorf("%d entities, want 19", n)
	}
}

// A tail made of headers that each claim the rest of the file as their body
// would cost a checksum over the rest at every one of them: the search gives
// up within its budget and, since such headers prove a later write anyway,
// the start is refused and nothing is cut.
func TestCraftedHeadersAfterDamageAreBounded(t *testing.T) {
	dir, seg, _, damaged, _ := tornLastWrite(t)
	const count = 8192
	base := int64(len(damaged))
	tail := make([]byte, count*recHeaderSize)
	for k := 0; k < count; k++ {
		at := k * recHeaderSize
		h := appendRecord(nil, 1<<40, nil)
		binary.LittleEndian.PutUint64(h[0:], uint64(len(tail)-at-recHeaderSize))
		stampWrite(h, []int{0}, base+int64(at))
		copy(tail[at:], h)
	}
	if err := os.WriteFile(seg, append(damaged, tail...), 0o600); err != nil {
		t.Fatal(err)
	}
	err := recoverErr(t, dir)
	if err == nil || !strings.Contains(err.Error(), "not a torn tail") {
		t.Fatalf("recover: %v, want a refusal", err)
	}
	if now, _ := os.ReadFile(seg); len(now) != len(damaged)+len(tail) {
		t.Errorf("the segment is %d bytes, want it unchanged", len(now))
	}
}
