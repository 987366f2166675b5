package persist

import (
	"os"
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
