package h1

import (
	"io"
	"runtime"
	"testing"
	"time"
)

// TestReplayedBytesAreReleased: once net/http has read the bytes the front
// replays (up to a 64 KiB header block, or a body cut short), the handed
// connection no longer holds them, for all the time it stays open.
func TestReplayedBytesAreReleased(t *testing.T) {
	pending := make([]byte, 64<<10)
	released := make(chan struct{})
	runtime.SetFinalizer(&pending[0], func(*byte) { close(released) })
	h := &handedConn{Conn: &memConn{step: 1}, pending: pending}
	pending = nil
	if n, err := io.ReadFull(h, make([]byte, 64<<10)); err != nil || n != 64<<10 {
		t.Fatalf("replayed %d bytes, %v", n, err)
	}
	for i := 0; i < 50; i++ {
		runtime.GC()
		select {
		case <-released:
			runtime.KeepAlive(h)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	runtime.KeepAlive(h)
	t.Error("the replayed bytes are still held by the connection")
}
