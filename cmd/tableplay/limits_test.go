package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startLimited serves h with limits l on a free loopback port.
func startLimited(t *testing.T, h http.Handler, l limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(h, l)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// short limits, so that the tests take well under a second each.
var short = limits{readHeader: 300 * time.Millisecond, read: 300 * time.Millisecond, write: 300 * time.Millisecond, idle: 300 * time.Millisecond, headerBytes: 4 << 10}

// closedWithin reports whether the server closes conn within d (reads return
// EOF or a reset), reading and discarding whatever it sends first.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func TestTrickledBodyIsCutOff(t *testing.T) {
	got := make(chan error, 1)
	addr := startLimited(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		got <- err
	}), short)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n")
	// One byte every 50 ms, for at most 2 s: the limit is 300 ms.
	start := time.Now()
	for i := 0; i < 40; i++ {
		if _, err := conn.Write([]byte("x")); err != nil {
			break
		}
		select {
		case err := <-got:
			if err == nil {
				t.Fatal("the trickled body was read whole")
			}
			if time.Since(start) > time.Second {
				t.Errorf("cut off only after %s", time.Since(start))
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatal("a body trickled for 2 s was still being read")
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	addr := startLimited(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}), short)
	conns := make([]net.Conn, 20)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
		// Half make one request and keep the connection alive; half say nothing.
		if i%2 == 0 {
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("request: %v", err)
			}
		}
	}
	for i, c := range conns {
		if !closedWithin(c, 2*time.Second) {
			t.Errorf("connection %d still open after 2 s", i)
		}
	}
}

func TestOversizedHeadersAreRefused(t *testing.T) {
	// As main serves: the default of net/http (1 MB) is far above any
	// request the service accepts.
	base := serve(t, "--web", t.TempDir())
	resp, _ := fetch(t, base+"/", "X-Filler", strings.Repeat("a", 200<<10))
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("200 KB of headers: %d", resp.StatusCode)
	}
	if resp, _ := fetch(t, base+"/", "X-Filler", strings.Repeat("a", 20<<10)); resp.StatusCode != 404 {
		t.Errorf("20 KB of headers: %d", resp.StatusCode)
	}
	if defaultLimits.read <= 0 || defaultLimits.write <= 0 || defaultLimits.idle <= 0 || defaultLimits.readHeader <= 0 {
		t.Errorf("every timeout must be set: %+v", defaultLimits)
	}
}
