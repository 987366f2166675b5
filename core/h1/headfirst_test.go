//go:build !js

package h1

import (
	"bufio"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// declaredHead is an insert's head declaring the most body the service
// takes, with the fields given (a signature, or none).
func declaredHead(fields string) string {
	return "POST /devstoreaccount1/people HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nAccept: application/json;odata=nometadata\r\n" +
		"Content-Type: application/json\r\nX-Ms-Version: 2019-02-02\r\n" + fields + "Content-Length: 4194304\r\n\r\n"
}

// sentBody is the part of the declared body that is sent: 9,000 bytes.
var sentBody = `{"PartitionKey":"p","RowKey":"r","V":"` + strings.Repeat("x", 9000-38)

// declaredFront is a front over an account with the table people that
// takes unsigned requests when anonymous is set, with net/http's limits of
// `tableplay serve` (a minute to read a request); connections handed over
// are closed.
func declaredFront(t testing.TB, anonymous bool) *Server {
	s := &Server{API: tableHandler(t, "people", anonymous),
		Fallback: &http.Server{ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)},
		conns:    map[*conn]bool{}}
	s.handoff = newHandoffListener(&net.TCPAddr{})
	s.handoff.Close()
	return s
}

// holdDeclared serves n connections (in memory) that each send head and
// the 9,000 body bytes and keep the connection open. Once every one has
// sent its bytes (the front read them, or answered and read past them), it
// measures the heap the front holds, then closes them all; it returns that
// heap and how many were answered 403.
func holdDeclared(s *Server, head string, n int) (held uint64, refused int) {
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msg := []byte(head + sentBody)
	clients := make([]net.Conn, n)
	var served, sent, read sync.WaitGroup
	var forbidden atomic.Int32
	for i := range clients {
		client, server := net.Pipe()
		clients[i] = client
		c := newConn(s, server)
		s.track(c)
		served.Add(1)
		go func() { defer served.Done(); c.serve() }()
		sent.Add(1)
		go func() { defer sent.Done(); client.Write(msg) }()
		read.Add(1)
		go func() {
			defer read.Done()
			if resp, err := http.ReadResponse(bufio.NewReader(client), nil); err == nil {
				if resp.StatusCode == http.StatusForbidden && resp.Close {
					forbidden.Add(1)
				}
				io.Copy(io.Discard, resp.Body)
			}
		}()
	}
	sent.Wait()
	runtime.GC()
	runtime.ReadMemStats(&during)
	for _, c := range clients {
		c.Close()
	}
	served.Wait()
	read.Wait()
	if during.HeapAlloc > before.HeapAlloc {
		held = during.HeapAlloc - before.HeapAlloc
	}
	return held, int(forbidden.Load())
}

// The hostile heads: unsigned, badly signed (both refused on their head),
// and unsigned where the account takes unsigned requests (let through: the
// body is awaited).
var declaredCases = []struct {
	name      string
	fields    string
	anonymous bool
	refused   bool
}{
	{"unsigned", "", false, true},
	{"badly-signed", "X-Ms-Date: Mon, 23 Nov 2026 02:13:40 GMT\r\nAuthorization: SharedKeyLite devstoreaccount1:AAAA\r\n", false, true},
	{"let-through", "", true, false},
}

// TestDeclaredBodiesHoldLittle: connections that declare a 4 MiB body and
// send 9,000 bytes of it hold about what they sent, not what they declared:
// refused on their head (403, and the connection closes), or let through
// and awaited with a buffer that grew with what came.
func TestDeclaredBodiesHoldLittle(t *testing.T) {
	const n = 100
	for _, dc := range declaredCases {
		held, refused := holdDeclared(declaredFront(t, dc.anonymous), declaredHead(dc.fields), n)
		if want := map[bool]int{true: n}[dc.refused]; refused != want {
			t.Errorf("%s: %d of %d answered 403 and closed, want %d", dc.name, refused, n, want)
		}
		// Each holds its 8 KiB buffer, or one of 16 KiB once 9,000 bytes came.
		if limit := uint64(n * 64 << 10); held > limit {
			t.Errorf("%s: %d connections hold %.1f MB, over %.1f MB", dc.name, n, float64(held)/(1<<20), float64(limit)/(1<<20))
		}
		t.Logf("%-12s %d connections hold %6.2f MB", dc.name, n, float64(held)/(1<<20))
	}
}

// TestDeclaredBodyRefusedAtOnce: over TCP, a request that declares a 4 MiB
// body, sends 9,000 bytes of it and waits, unsigned or badly signed, is
// answered 403 at once (well within the minute its body may take) and its
// connection closed, as net/http answers it.
func TestDeclaredBodyRefusedAtOnce(t *testing.T) {
	for _, dc := range declaredCases[:2] {
		s := declaredFront(t, false)
		conn := dialFront(t, s)
		if _, err := io.WriteString(conn, declaredHead(dc.fields)+sentBody); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: no answer while the body is awaited: %v", dc.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusForbidden || !resp.Close || !strings.Contains(string(body), "AuthenticationFailed") {
			t.Errorf("%s: answered %d (closing: %v) %s", dc.name, resp.StatusCode, resp.Close, body)
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("%s: after the answer, %v; want the connection closed", dc.name, err)
		}
	}
}

// BenchmarkDeclaredBodies: 300 connections each declaring a 4 MiB body and
// sending 9,000 bytes of it (declaredCases), in memory: the CPU they cost
// (both ends) and the heap the front holds once all have sent their bytes.
func BenchmarkDeclaredBodies(b *testing.B) {
	for _, dc := range declaredCases {
		b.Run(dc.name, func(b *testing.B) {
			s, head := declaredFront(b, dc.anonymous), declaredHead(dc.fields)
			var most uint64
			start := cpuTime()
			for b.Loop() {
				held, _ := holdDeclared(s, head, 300)
				most = max(most, held)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(most)/(1<<20), "held-MB")
		})
	}
}

// cpuTime is the process's CPU time (user and system) in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
