package h1

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// repeatConn is a connection whose input is one request n times, read at
// most a request per Read, as a client sending one at a time would deliver
// it; answers are counted and dropped.
type repeatConn struct {
	memConn
	req     []byte
	left    int // requests not yet begun
	off     int // bytes of the current request already read
	written int64
	other   int    // writes that do not begin a good answer
	good    string // how a good answer begins; "" for 200 OK
	done    chan struct{}
	once    sync.Once
}

func (c *repeatConn) Read(p []byte) (int, error) {
	if c.off == 0 {
		if c.left == 0 {
			return 0, io.EOF
		}
		c.left--
	}
	n := copy(p, c.req[c.off:])
	c.off = (c.off + n) % len(c.req)
	return n, nil
}

func (c *repeatConn) Write(p []byte) (int, error) {
	c.written += int64(len(p))
	good := c.good
	if good == "" {
		good = "HTTP/1.1 200 OK\r\n"
	}
	if !bytes.HasPrefix(p, []byte(good)) {
		c.other++
	}
	return len(p), nil
}
func (c *repeatConn) Close() error { c.once.Do(func() { close(c.done) }); return nil }

// oneConn is a listener that accepts one connection, then blocks until
// closed.
type oneConn struct {
	c      net.Conn
	closed chan struct{}
}

func (l *oneConn) Accept() (net.Conn, error) {
	if c := l.c; c != nil {
		l.c = nil
		return c, nil
	}
	<-l.closed
	return nil, net.ErrClosed
}
func (l *oneConn) Close() error   { return nil }
func (l *oneConn) Addr() net.Addr { return &net.TCPAddr{} }

// The request the benchmarks repeat: an SDK's point read, as aztables
// sends it (signature checked against the well-known key is left out:
// the account lets unsigned requests in).
const benchRequest = "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nUser-Agent: azsdk-go-aztables/v1.4.1 (go1.26.8; linux)\r\n" +
	"Accept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\nX-Ms-Date: Mon, 23 Nov 2026 02:13:40 GMT\r\n" +
	"x-ms-version: 2019-02-02\r\nAccept-Encoding: gzip\r\n\r\n"

func benchHandler() *rest.Handler {
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	return rest.New(rest.Options{Store: store.New(store.Options{Clock: time.Now}), Credentials: creds, Clock: time.Now})
}

// tableHandler is an account holding an empty table, which takes unsigned
// requests when anonymous is set.
func tableHandler(tb testing.TB, table string, anonymous bool) *rest.Handler {
	st := store.New(store.Options{Clock: time.Now})
	if _, err := st.CreateTable(table); err != nil {
		tb.Fatal(err)
	}
	creds := rest.WellKnown()
	creds.AllowUnsigned = anonymous
	return rest.New(rest.Options{Store: st, Credentials: creds, Clock: time.Now})
}

// serveRepeated has the front answer b.N requests req on one connection,
// each answer beginning with good ("" for 200 OK).
func serveRepeated(b *testing.B, api rest.Server, req, good string) {
	s := &Server{API: api, Fallback: &http.Server{}, conns: map[*conn]bool{}}
	s.handoff = newHandoffListener(&net.TCPAddr{})
	rc := &repeatConn{memConn: memConn{step: 1}, req: []byte(req), left: b.N, done: make(chan struct{}), good: good}
	b.ReportAllocs()
	b.ResetTimer()
	c := newConn(s, rc)
	s.track(c)
	c.serve()
	b.StopTimer()
	if rc.written < int64(b.N)*50 || rc.other > 0 {
		b.Fatalf("%d bytes answered for %d requests, %d writes not a good answer", rc.written, b.N, rc.other)
	}
}

// BenchmarkConn: one keep-alive connection answering b.N requests through
// the front, and through net/http alone with the same handler (what the
// server did before the front): with the engine listing tables, and with a
// handler that writes a fixed answer (the transports' own cost). In
// memory, so without the system calls and wake-ups a socket adds.
func BenchmarkConn(b *testing.B) {
	fixed := handlerFunc(func(w rest.ResponseWriter, h rest.Header, r rest.Request) {
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", "12")
		w.WriteHeader(200)
		w.Write([]byte(`{"value":[]}`))
	})
	for _, handler := range []struct {
		name string
		h    rest.Server
	}{{"engine", benchHandler()}, {"fixed", fixed}} {
		b.Run("front/"+handler.name, func(b *testing.B) { serveRepeated(b, handler.h, benchRequest, "") })
		b.Run("net-http/"+handler.name, func(b *testing.B) {
			rc := &repeatConn{memConn: memConn{step: 1}, req: []byte(benchRequest), left: b.N, done: make(chan struct{})}
			ln := &oneConn{c: rc, closed: make(chan struct{})}
			srv := &http.Server{Handler: resthttp.New(handler.h)}
			b.ReportAllocs()
			b.ResetTimer()
			go srv.Serve(ln)
			<-rc.done
			b.StopTimer()
			close(ln.closed)
			if rc.written < int64(b.N)*50 || rc.other > 0 {
				b.Fatalf("%d bytes answered for %d requests, %d writes not a 200 answer", rc.written, b.N, rc.other)
			}
		})
	}
}

// BenchmarkParseHead: reading an SDK's request head into a rest.Request's
// parts.
func BenchmarkParseHead(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := parseHead(benchRequest, rest.MaxBody, nil); !ok {
			b.Fatal("not taken")
		}
	}
}

// BenchmarkLargeBody: one keep-alive connection upserting b.N entities of
// about size bytes through the front (unsigned, the account lets them in),
// a body larger than the connection's first buffer: the head is judged
// before the body is read, and the buffer grows as the body comes.
func BenchmarkLargeBody(b *testing.B) {
	for _, size := range []int{20 << 10, 100 << 10} {
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			body := `{"PartitionKey":"p","RowKey":"r"`
			for i := 0; i < size/(20<<10); i++ {
				body += `,"V` + strconv.Itoa(i) + `":"` + strings.Repeat("v", 20<<10) + `"` // each under the 64 KiB a string may hold
			}
			body += "}"
			req := "PUT /devstoreaccount1/bench(PartitionKey='p',RowKey='r') HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nAccept: application/json;odata=nometadata\r\n" +
				"Content-Type: application/json\r\nx-ms-version: 2019-02-02\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
			serveRepeated(b, tableHandler(b, "bench", true), req, "HTTP/1.1 204 No Content\r\n")
		})
	}
}
