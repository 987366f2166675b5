package h1

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// shutdown shuts s down, waiting no more than 5 s.
func shutdown(t *testing.T, s *Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // t.Context() is over by Cleanup time
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

// dialFront serves s on a free loopback port and returns a connection to
// it; the connection closes and s shuts down when the test ends.
func dialFront(t *testing.T, s *Server) net.Conn {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { shutdown(t, s) })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// failingListener is a loopback listener whose first fails Accepts return
// err, as accept(2) does when the process is out of descriptors.
type failingListener struct {
	net.Listener
	fails atomic.Int32
	err   error
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.fails.Add(-1) >= 0 {
		return nil, l.err
	}
	return l.Listener.Accept()
}

// TestAcceptOutOfDescriptorsIsRetried: as with net/http, running out of
// file descriptors (EMFILE, ENFILE) while accepting is waited out; it must
// not end Serve, which would stop `tableplay serve` for every client.
func TestAcceptOutOfDescriptorsIsRetried(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		fl := &failingListener{Listener: ln, err: &net.OpError{Op: "accept", Net: "tcp", Addr: ln.Addr(), Err: os.NewSyscallError("accept4", errno)}}
		fl.fails.Store(3)
		answer := handlerFunc(func(w rest.ResponseWriter, _ rest.Header, _ rest.Request) { w.Write([]byte("ok")) })
		s := &Server{API: answer, Fallback: &http.Server{ReadHeaderTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}}
		served := make(chan error, 1)
		go func() { served <- s.Serve(fl) }()
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + ln.Addr().String() + "/x")
		if err != nil {
			t.Fatalf("%v: request after accept failures: %v", errno, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "ok" {
			t.Errorf("%v: answer %q", errno, body)
		}
		select {
		case err := <-served:
			t.Errorf("%v: Serve returned %v", errno, err)
		default:
		}
		shutdown(t, s)
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("%v: Serve after Shutdown returned %v", errno, err)
		}
	}
}

// TestSlowReaderIsCutOff: a client that asks for a large answer and never
// reads it cannot hold the connection past the write limit, though the raw
// writes never block (the runtime's poller waits, with the deadline).
func TestSlowReaderIsCutOff(t *testing.T) {
	big := make([]byte, 32<<20) // far more than the socket buffers hold
	limit := 300 * time.Millisecond
	finished := make(chan time.Time, 1)
	api := handlerFunc(func(w rest.ResponseWriter, h rest.Header, _ rest.Request) {
		h.Set("Content-Type", "application/octet-stream")
		w.Write(big[:100]) // a small write first: gathered, then the rest beside it
		w.Write(big[100:])
		finished <- time.Now()
	})
	s := &Server{API: api, Fallback: &http.Server{ReadHeaderTimeout: limit, WriteTimeout: limit, ErrorLog: log.New(io.Discard, "", 0)}}
	conn := dialFront(t, s)
	conn.(*net.TCPConn).SetReadBuffer(4096)
	start := time.Now()
	io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n")
	select {
	case end := <-finished:
		if d := end.Sub(start); d > 3*limit+time.Second {
			t.Errorf("the handler's write to a client that reads nothing returned after %s (write limit %s)", d, limit)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a client that reads nothing held the answer 10 s (write limit 300 ms)")
	}
}

// TestPipelinedSlowReaderIsCutOff: the same for many small answers, each
// written with a raw write system call: when the socket's buffer is full,
// the write waits for the poller, and the write limit still ends it.
func TestPipelinedSlowReaderIsCutOff(t *testing.T) {
	answer := make([]byte, 8<<10) // under sendSize: gathered and written raw
	limit := 300 * time.Millisecond
	api := handlerFunc(func(w rest.ResponseWriter, _ rest.Header, _ rest.Request) { w.Write(answer) })
	s := &Server{API: api, Fallback: &http.Server{ReadHeaderTimeout: limit, WriteTimeout: limit, ErrorLog: log.New(io.Discard, "", 0)}}
	conn := dialFront(t, s)
	conn.(*net.TCPConn).SetReadBuffer(4096)
	start := time.Now()
	// 4,000 answers of 8 KiB: 32 MiB, far more than the socket buffers.
	go conn.Write([]byte(strings.Repeat("GET /x HTTP/1.1\r\nHost: a\r\n\r\n", 4000)))
	for i := 0; i < 1000; i++ {
		open := s.open()
		if open == 0 && time.Since(start) > 50*time.Millisecond {
			if d := time.Since(start); d > 3*limit+time.Second {
				t.Errorf("a client that reads nothing held pipelined answers %s (write limit %s)", d, limit)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("a client that reads nothing held pipelined answers 10 s (write limit 300 ms)")
}

// TestManyConnectionsLeaveNothing: a thousand connections served (some
// answered by the front, some handed to net/http, some closed mid-request)
// leave no goroutine behind once they close.
func TestManyConnectionsLeaveNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	api := handlerFunc(func(w rest.ResponseWriter, _ rest.Header, _ rest.Request) { w.Write([]byte("api")) })
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "page") })
	s := &Server{API: api, Takes: func(p string) bool { return strings.HasPrefix(p, "/api") },
		Fallback: &http.Server{Handler: page, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}}
	// Serving itself takes two goroutines: the front's and net/http's
	// accept loops.
	before := runtime.NumGoroutine() + 2
	go s.Serve(ln)
	defer shutdown(t, s)
	requests := []string{
		"GET /api HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /page HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /api HTTP/1.1\r\nHost: a\r\n\r\nGET /page HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /api HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n01234",
		"GET /page HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n01234",
	}
	for i := 0; i < 1000; i++ {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		req := requests[i%len(requests)]
		io.WriteString(c, req)
		if !strings.HasSuffix(req, "01234") {
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("connection %d: %v", i, err)
			}
			resp.Body.Close()
		}
		c.Close()
	}
	after := 0
	for i := 0; i < 200; i++ {
		if after = runtime.NumGoroutine(); after <= before {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	open := s.open()
	if after > before || open != 0 {
		buf := make([]byte, 1<<16)
		t.Errorf("after 1000 closed connections: %d goroutines (%d before and for serving), %d connections tracked\n%s", after, before, open, buf[:runtime.Stack(buf, true)])
	}
}

// TestIdleConnectionsCost measures what a thousand idle keep-alive
// connections hold (heap and goroutine stacks, per connection) after one
// answer each, through the front and through net/http alone, and holds the
// front under a bound.
func TestIdleConnectionsCost(t *testing.T) {
	const n = 1000
	api := handlerFunc(func(w rest.ResponseWriter, _ rest.Header, _ rest.Request) { w.Write([]byte("api")) })
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "api") })
	measure := func(serve func(net.Listener), stop func()) float64 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go serve(ln)
		defer stop()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		conns := make([]net.Conn, 0, n)
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		buf := make([]byte, 4096)
		for i := 0; i < n; i++ {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			io.WriteString(c, "GET /api HTTP/1.1\r\nHost: a\r\n\r\n")
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if k, err := c.Read(buf); err != nil || !strings.HasSuffix(string(buf[:k]), "\r\n\r\napi") {
				t.Fatalf("connection %d: %q %v", i, buf[:k], err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := float64(after.HeapInuse+after.StackInuse) - float64(before.HeapInuse+before.StackInuse)
		return held / n
	}
	s := &Server{API: api, Fallback: &http.Server{Handler: page, IdleTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)}}
	front := measure(func(ln net.Listener) { s.Serve(ln) }, func() { shutdown(t, s) })
	hs := &http.Server{Handler: page, IdleTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)}
	plain := measure(func(ln net.Listener) { hs.Serve(ln) }, func() { hs.Close() })
	t.Logf("idle keep-alive connection (both ends, heap + stacks): front %.1f KiB, net/http %.1f KiB", front/1024, plain/1024)
	if front > 24<<10 {
		t.Errorf("an idle connection through the front holds %.1f KiB (net/http %.1f KiB)", front/1024, plain/1024)
	}
}

// TestRequestUnderWayAtShutdownIsAnswered: a request whose header is
// arriving when Shutdown starts is answered, with Connection: close, and
// then the connection closes: one the front takes, and one it hands to
// net/http (which must still take it, and answer it: net/http drops a
// request it finishes reading after its own Shutdown began, so the
// fallback starts serving the connection late here, as a busy machine
// may).
func TestRequestUnderWayAtShutdownIsAnswered(t *testing.T) {
	for _, path := range []string{"/api", "/page"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		api := handlerFunc(func(w rest.ResponseWriter, _ rest.Header, _ rest.Request) { w.Write([]byte("api")) })
		page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "page") })
		s := &Server{API: api, Takes: func(p string) bool { return p == "/api" },
			Fallback: &http.Server{Handler: page, ReadHeaderTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0),
				ConnState: func(_ net.Conn, st http.ConnState) {
					if st == http.StateNew {
						time.Sleep(150 * time.Millisecond)
					}
				}}}
		go s.Serve(ln)
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: a\r\n")
		for i := 0; ; i++ { // until the front is reading the request
			if anyBusy(s) {
				break
			}
			if i == 500 {
				t.Fatal("the front never started reading the request")
			}
			time.Sleep(2 * time.Millisecond)
		}
		shut := make(chan error, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // t.Context() is over by Cleanup time
		defer cancel()
		go func() { shut <- s.Shutdown(ctx) }()
		time.Sleep(100 * time.Millisecond)
		io.WriteString(c, "\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Errorf("%s: no answer to a request under way at Shutdown: %v", path, err)
		} else {
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || string(body) != path[1:] || !resp.Close {
				t.Errorf("%s: answer %d %q, Connection: close %v; want 200 %q, true", path, resp.StatusCode, body, resp.Close, path[1:])
			}
		}
		if err := <-shut; err != nil {
			t.Errorf("%s: Shutdown: %v", path, err)
		}
		c.Close()
	}
}

// anyBusy reports whether one of s's connections is answering a request.
func anyBusy(s *Server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, busy := range s.conns {
		if busy {
			return true
		}
	}
	return false
}

// TestLargeAnswerArrivesWhole: an answer far larger than the socket's
// buffers, gathered output and a large body written beside it in one
// vectored write, reaches a client that reads it slowly byte for byte
// (the write is taken in parts, each resumed where the last one ended).
func TestLargeAnswerArrivesWhole(t *testing.T) {
	big := make([]byte, 8<<20)
	for i := range big {
		big[i] = byte(i*7 + i>>13)
	}
	api := handlerFunc(func(w rest.ResponseWriter, h rest.Header, _ rest.Request) {
		h.Set("Content-Type", "application/octet-stream")
		w.Write(big[:100]) // gathered, then the rest written beside it
		w.Write(big[100:])
	})
	conn := dialFront(t, &Server{API: api, Fallback: &http.Server{}})
	io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReaderSize(conn, 4096)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 0, len(big))
	buf := make([]byte, 64<<10)
	for reads := 0; len(got) < len(big) && reads < 1<<20; reads++ {
		n, err := resp.Body.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
		if reads%16 == 0 {
			time.Sleep(time.Millisecond) // let the server's socket fill
		}
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("%d bytes arrived, want %d; first difference at %d", len(got), len(big), firstDiff(got, big))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
