package h1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// memConn is a connection in memory: reads return its input in pieces of
// at most step bytes, then EOF; writes are kept.
type memConn struct {
	in     []byte
	step   int
	out    bytes.Buffer
	closed bool
}

func (c *memConn) Read(p []byte) (int, error) {
	if c.closed {
		return 0, net.ErrClosed
	}
	if len(c.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.in[:min(len(c.in), c.step)])
	c.in = c.in[n:]
	return n, nil
}

func (c *memConn) Write(p []byte) (int, error) {
	if c.closed {
		return 0, net.ErrClosed
	}
	return c.out.Write(p)
}

func (c *memConn) Close() error                     { c.closed = true; return nil }
func (c *memConn) LocalAddr() net.Addr              { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 10002} }
func (c *memConn) RemoteAddr() net.Addr             { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000} }
func (c *memConn) SetDeadline(time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(time.Time) error { return nil }

// memServer is a front over a real handler (an in-memory account that
// takes unsigned requests) whose handed-over connections land in handed.
type memServer struct {
	s      *Server
	handed chan net.Conn
	done   chan struct{} // the handed-over connection, if any, is in handed
	errors *bytes.Buffer
}

func newMemServer() *memServer {
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	errs := &bytes.Buffer{}
	h := rest.New(rest.Options{Store: store.New(store.Options{Clock: time.Now}), Credentials: creds, Clock: time.Now})
	s := &Server{API: h, Takes: func(p string) bool { return strings.HasPrefix(p, "/devstoreaccount1") },
		Fallback: &http.Server{ReadHeaderTimeout: time.Second, ReadTimeout: time.Second, IdleTimeout: time.Second, MaxHeaderBytes: 64 << 10,
			ErrorLog: log.New(errs, "", 0)},
		conns: map[*conn]bool{}}
	s.handoff = newHandoffListener(&net.TCPAddr{})
	m := &memServer{s: s, handed: make(chan net.Conn, 1), done: make(chan struct{}), errors: errs}
	go func() {
		defer close(m.done)
		if c, err := s.handoff.Accept(); err == nil {
			m.handed <- c
		}
	}()
	return m
}

// serve runs one connection with input in to its end; it returns what the
// front wrote and the connection handed to net/http, if any.
func (m *memServer) serve(in []byte, step int) (*memConn, *handedConn) {
	mc := &memConn{in: in, step: max(step, 1)}
	c := newConn(m.s, mc)
	m.s.track(c)
	c.serve()
	m.s.handoff.Close()
	<-m.done
	select {
	case h := <-m.handed:
		return mc, h.(*handedConn)
	default:
		return mc, nil
	}
}

// FuzzConn: any bytes on a connection, read in pieces of any size, never
// panic; the front writes only whole answers (each one an HTTP/1.1
// response Go's client reads); and when it hands the connection over, the
// bytes it replays and those not yet read are exactly the end of the input:
// nothing lost, nothing read twice.
func FuzzConn(f *testing.F) {
	f.Add([]byte("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n"), 7)
	f.Add([]byte("POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"TableName\":\"abc\"}\r\nGET /x HTTP/1.1\r\n\r\n"), 1000)
	f.Add([]byte("HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n"), 3)
	f.Add([]byte("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\nabc"), 64)
	f.Add([]byte("GET /devstoreaccount1/../x HTTP/1.1\r\nhost: a\r\ncontent-length: 3\r\n\r\nabcGET /devstoreaccount1 HTTP/1.1\r\nHost: evil\r\n\r\n"), 5)
	f.Add([]byte("OPTIONS /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nOrigin: http://x\r\nAccess-Control-Request-Method: GET\r\n\r\n\r\n\r\n"), 2)
	post := "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 600\r\n\r\n" + strings.Repeat(" ", 600)
	f.Add([]byte(strings.Repeat(post, 20)), 1000) // bodies across the read buffer's end
	// Bodies past the read buffer, refused on their head (an unsigned
	// write with no Content-Type): one read past, then one closing.
	refused := "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Length: 20000\r\n\r\n" + strings.Repeat(" ", 20000)
	f.Add([]byte(refused+"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\n\r\n"), 4096)
	f.Add([]byte("POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Length: 4194304\r\n\r\n"+strings.Repeat(" ", 9000)), 4096)
	f.Fuzz(func(t *testing.T, in []byte, step int) {
		if step < 0 {
			step = -step
		}
		m := newMemServer()
		mc, h := m.serve(in, step%4096)
		if m.errors.Len() > 0 {
			t.Fatalf("the front failed: %s", m.errors)
		}
		// Read as answers to GET: an answer to HEAD has no body, so when
		// the input holds one the framing is not checked.
		wrote := mc.out.String()
		out := bufio.NewReader(strings.NewReader(wrote))
		for !bytes.Contains(in, []byte("HEAD")) {
			if _, err := out.Peek(1); err == io.EOF {
				break
			}
			resp, err := http.ReadResponse(out, &http.Request{Method: "GET"})
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
			}
			if err != nil {
				t.Fatalf("an answer Go cannot read: %v\n%q", err, wrote)
			}
		}
		if h != nil {
			rest := append(append([]byte(nil), h.pending...), mc.in...)
			if !bytes.HasSuffix(in, rest) {
				t.Fatalf("handed over %q, not the end of the input", rest)
			}
		}
	})
}

// TestHostileConnectionsStayBounded: what one hostile connection costs the
// front, measured, and held under a bound: a header block trickled a byte
// at a time, a block over 64 KiB, a Content-Length of 4 MiB with a short
// body (refused on its head, or let through), 64 KiB of fields, thousands
// of pipelined requests.
func TestHostileConnectionsStayBounded(t *testing.T) {
	get := "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost\r\nAccept: application/json;odata=nometadata\r\n\r\n"
	var fields strings.Builder
	fields.WriteString("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost\r\n")
	for i := 0; fields.Len() < 60<<10; i++ {
		fields.WriteString("X" + strings.Repeat("y", i%7) + string(rune('a'+i%26)) + ": 1\r\n")
	}
	fields.WriteString("\r\n")
	cases := []struct {
		name    string
		in      string
		step    int
		answers int  // answers the front writes itself
		handed  bool // the connection goes to net/http
		limit   uint64
	}{
		{"header trickled byte by byte", get, 1, 1, false, 64 << 10},
		{"header block of 1 MiB", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nX: " + strings.Repeat("a", 1<<20), 4096, 0, true, 256 << 10},
		// A create table with no Content-Type: the gate refuses it on its
		// head (an unsigned write another site could send), at once.
		{"4 MiB declared, 10 bytes sent, refused", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Length: 4194304\r\n\r\n0123456789", 4096, 1, false, 256 << 10},
		// Let through: the body is awaited, with a buffer sized by what came.
		{"4 MiB declared, 10 bytes sent", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n0123456789", 4096, 0, true, 256 << 10},
		{"4 MiB declared, 1 MiB sent", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n" + strings.Repeat(" ", 1<<20), 64 << 10, 0, true, 8 << 20},
		{"60 KiB of short fields", fields.String(), 4096, 1, false, 4 << 20},
		{"10,000 pipelined requests", strings.Repeat(get, 10000), 64 << 10, 10000, false, 64 << 20},
	}
	for _, c := range cases {
		m := newMemServer()
		var mc *memConn
		var h *handedConn
		in := []byte(c.in)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		mc, h = m.serve(in, c.step)
		runtime.ReadMemStats(&after)
		heap := after.TotalAlloc - before.TotalAlloc
		answers := bytes.Count(mc.out.Bytes(), []byte("HTTP/1.1 "))
		if answers != c.answers || (h != nil) != c.handed {
			t.Errorf("%s: %d answers, handed over %v; want %d, %v", c.name, answers, h != nil, c.answers, c.handed)
		}
		if heap > c.limit {
			t.Errorf("%s: %.2f MB allocated, over %.2f MB", c.name, float64(heap)/(1<<20), float64(c.limit)/(1<<20))
		}
		t.Logf("%-30s %8.3f MB allocated (%d answers)", c.name, float64(heap)/(1<<20), answers)
	}
}

// TestSlowHeaderIsCutOff: over TCP, a header block trickled slower than the
// read-header limit ends with the connection closed, within the limit.
func TestSlowHeaderIsCutOff(t *testing.T) {
	limit := 300 * time.Millisecond
	s := &Server{API: nil, Takes: func(string) bool { return true },
		Fallback: &http.Server{ReadHeaderTimeout: limit, ReadTimeout: limit, IdleTimeout: limit, ErrorLog: log.New(os.Stderr, "", 0)}}
	conn := dialFront(t, s)
	start := time.Now()
	for i := 0; i < 40; i++ {
		if _, err := conn.Write([]byte("G")); err != nil {
			break
		}
		conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		var b [1]byte
		if _, err := conn.Read(b[:]); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			break // closed
		}
	}
	if d := time.Since(start); d > 3*limit {
		t.Errorf("a trickled header kept the connection open %s (limit %s)", d, limit)
	}
}

// startShort serves a real handler through the front on loopback with
// limits of limit each.
func startShort(t *testing.T, limit time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := newMemServer()
	s := &Server{API: m.s.API, Takes: m.s.Takes,
		Fallback: &http.Server{Handler: resthttp.New(m.s.API), ReadHeaderTimeout: limit, ReadTimeout: limit, WriteTimeout: limit, IdleTimeout: limit,
			ErrorLog: log.New(io.Discard, "", 0)}}
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(t.Context()) })
	return ln.Addr().String()
}

// TestFrontLimits: over TCP, a keep-alive connection left idle is closed
// after the idle limit, and a body trickled slower than the read limit is
// cut off (net/http, handed the request, answers it as before: 400).
func TestFrontLimits(t *testing.T) {
	limit := 300 * time.Millisecond
	addr := startShort(t, limit)
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	io.WriteString(idle, "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n")
	br := bufio.NewReader(idle)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("request: %v", err)
	} else {
		io.Copy(io.Discard, resp.Body)
	}
	start := time.Now()
	idle.SetReadDeadline(time.Now().Add(4 * time.Second))
	if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("an idle connection was not closed: %v", err)
	} else if d := time.Since(start); d > limit+2*time.Second {
		t.Errorf("an idle connection closed after %s (limit %s)", d, limit)
	}

	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	io.WriteString(slow, "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
	start = time.Now()
	got := make(chan string, 1)
	go func() {
		slow.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(slow)
		got <- string(b)
	}()
	// Reading the whole body at this pace would take 50 s; the answer must
	// come soon after the limit (the margin is for a loaded machine).
	for i := 0; i < 60; i++ {
		select {
		case answer := <-got:
			if d := time.Since(start); d > limit+2*time.Second || !strings.HasPrefix(answer, "HTTP/1.1 400 ") {
				t.Errorf("a trickled body ended after %s (limit %s) with %q", d, limit, answer)
			}
			return
		case <-time.After(50 * time.Millisecond):
			slow.Write([]byte("x"))
		}
	}
	t.Fatal("a body trickled for 3 s was still being read")
}

// TestSilentConnectionIsClosed: as with net/http, a new connection that
// sends nothing is closed after the read-header limit, not the longer idle
// one.
func TestSilentConnectionIsClosed(t *testing.T) {
	limit := 200 * time.Millisecond
	s := &Server{Fallback: &http.Server{ReadHeaderTimeout: limit, ReadTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second}}
	conn := dialFront(t, s)
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var b [1]byte
	if _, err := conn.Read(b[:]); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a silent connection stayed open: %v", err)
	}
	if d := time.Since(start); d > 3*limit {
		t.Errorf("a silent connection was closed after %s (header limit %s)", d, limit)
	}
}
