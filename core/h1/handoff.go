package h1

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// handedConn is a connection given to net/http: it first replays the bytes
// the front read and did not consume, so nothing is lost. Until net/http
// writes to it (its answer to the request being read when it was handed
// over), a read deadline net/http sets is held to the request's own: the
// first to the header deadline, the later ones to the whole-request
// deadline, as if net/http had read the request from its first byte.
type handedConn struct {
	net.Conn
	pending []byte
	limits  [2]time.Time
	calls   int // read deadlines set so far
	wrote   atomic.Bool
	// answered tells the front that net/http has begun its answer (or
	// closed the connection); set before the hand-over.
	answered func()
}

// Read returns the replayed bytes first.
func (c *handedConn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		if len(c.pending) == 0 {
			c.pending = nil // not held for the connection's life
		}
		return n, nil
	}
	return c.Conn.Read(p)
}

// Write marks the end of the handed-over request's deadlines.
func (c *handedConn) Write(p []byte) (int, error) {
	c.wrote.Store(true)
	c.answered()
	return c.Conn.Write(p)
}

// Close ends the connection, answered or not.
func (c *handedConn) Close() error {
	c.answered()
	return c.Conn.Close()
}

// ReadFrom lets net/http send a file with the connection's own ReadFrom
// (sendfile on TCP).
func (c *handedConn) ReadFrom(r io.Reader) (int64, error) {
	c.wrote.Store(true)
	c.answered()
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// CloseWrite half-closes a TCP connection, which net/http does before
// closing after an error answer.
func (c *handedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SetReadDeadline holds t to the handed-over request's deadlines.
func (c *handedConn) SetReadDeadline(t time.Time) error {
	if !c.wrote.Load() {
		limit := c.limits[min(c.calls, 1)]
		c.calls++
		if !limit.IsZero() && (t.IsZero() || t.After(limit)) {
			t = limit
		}
	}
	return c.Conn.SetReadDeadline(t)
}

// handoffListener is the listener net/http serves: Accept returns the
// connections the front hands over.
type handoffListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newHandoffListener(addr net.Addr) *handoffListener {
	return &handoffListener{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept returns the next connection handed over.
func (l *handoffListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept; connections handed over later are refused.
func (l *handoffListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is the front's own listening address.
func (l *handoffListener) Addr() net.Addr { return l.addr }

// give hands c to net/http; false when the listener is closed.
func (l *handoffListener) give(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.done:
		return false
	}
}
