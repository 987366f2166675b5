package h1

import (
	"io"
	"log"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
)

// handlerFunc is a rest.Server made of a function.
type handlerFunc func(w rest.ResponseWriter, h rest.Header, r rest.Request)

func (f handlerFunc) Handle(w rest.ResponseWriter, h rest.Header, r rest.Request) { f(w, h, r) }

// serveBoth serves s through the front and through net/http alone (the
// resthttp adapter) on loopback, and returns both addresses.
func serveBoth(t *testing.T, s rest.Server) (front, plain string) {
	t.Helper()
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	lf, lp := listen(), listen()
	quiet := log.New(io.Discard, "", 0)
	f := &Server{API: s, Takes: func(string) bool { return true }, Fallback: &http.Server{Handler: resthttp.New(s), ErrorLog: quiet}}
	p := &http.Server{Handler: resthttp.New(s), ErrorLog: quiet}
	go f.Serve(lf)
	go p.Serve(lp)
	t.Cleanup(func() { f.Shutdown(t.Context()); p.Close() })
	return lf.Addr().String(), lp.Addr().String()
}

// roundTrip sends raw on a new connection, half-closes it, and returns all
// the server sent until it closed.
func roundTrip(t *testing.T, addr, raw string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, raw)
	c.(*net.TCPConn).CloseWrite()
	b, _ := io.ReadAll(c)
	return string(b)
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)

// TestResponseFramingMatchesNetHTTP: handlers that rely on what net/http's
// server adds or refuses (a Content-Length or chunks it computes, a sniffed
// Content-Type, fields a status forbids, a declared length not met, a
// Connection: close, odd field names and values, an unknown status) get
// the same bytes from the front, each followed by a second request on the
// same connection when the first leaves it open.
func TestResponseFramingMatchesNetHTTP(t *testing.T) {
	write := func(s string) func(w rest.ResponseWriter, h rest.Header) {
		return func(w rest.ResponseWriter, h rest.Header) { w.Write([]byte(s)) }
	}
	cases := map[string]func(w rest.ResponseWriter, h rest.Header){
		"nothing written":    func(w rest.ResponseWriter, h rest.Header) {},
		"text sniffed":       write("hello, world"),
		"HTML sniffed":       write("<!DOCTYPE html><title>x</title>"),
		"long body, chunked": write(strings.Repeat("abcdefgh", 600)),
		"two writes, declared": func(w rest.ResponseWriter, h rest.Header) {
			h.Set("Content-Length", "6")
			w.Write([]byte("abc"))
			w.Write([]byte("def"))
		},
		"declared, cut short":    func(w rest.ResponseWriter, h rest.Header) { h.Set("Content-Length", "10"); w.Write([]byte("abc")) },
		"declared, written over": func(w rest.ResponseWriter, h rest.Header) { h.Set("Content-Length", "2"); w.Write([]byte("abc")) },
		"no body on 204": func(w rest.ResponseWriter, h rest.Header) {
			h.Set("Content-Length", "3")
			w.WriteHeader(204)
			w.Write([]byte("abc"))
		},
		"304 drops its type": func(w rest.ResponseWriter, h rest.Header) { h.Set("Content-Type", "text/plain"); w.WriteHeader(304) },
		"the handler closes": func(w rest.ResponseWriter, h rest.Header) { h.Set("Connection", "close"); w.Write([]byte("bye")) },
		"encoded, not sniffed": func(w rest.ResponseWriter, h rest.Header) {
			h.Set("Content-Encoding", "gzip")
			w.Write([]byte("<html>"))
		},
		"newlines in a value": func(w rest.ResponseWriter, h rest.Header) { h["X-Odd"] = []string{" a\r\nb\nc "}; w.WriteHeader(200) },
		"an invalid field name": func(w rest.ResponseWriter, h rest.Header) {
			h["Bad Name"] = []string{"x"}
			h["Good"] = []string{"y", "z"}
			w.WriteHeader(201)
		},
		"an unknown status":     func(w rest.ResponseWriter, h rest.Header) { w.WriteHeader(599); w.Write([]byte("x")) },
		"a bad declared length": func(w rest.ResponseWriter, h rest.Header) { h.Set("Content-Length", "-1"); w.Write([]byte("abc")) },
		"header set after status": func(w rest.ResponseWriter, h rest.Header) {
			w.WriteHeader(202)
			h.Set("X-Late", "1")
			w.Write([]byte("ok"))
		},
	}
	for name, c := range cases {
		f, p := serveBoth(t, handlerFunc(func(w rest.ResponseWriter, h rest.Header, r rest.Request) { c(w, h) }))
		for _, method := range []string{"GET", "HEAD"} {
			raw := method + " /x HTTP/1.1\r\nHost: a\r\n\r\n" + "GET /y HTTP/1.1\r\nHost: a\r\n\r\n"
			a, b := roundTrip(t, p, raw), roundTrip(t, f, raw)
			a, b = dateLine.ReplaceAllString(a, "Date: *\r"), dateLine.ReplaceAllString(b, "Date: *\r")
			if a != b {
				t.Errorf("%s, %s: net/http wrote\n%q\nthe front wrote\n%q", name, method, a, b)
			}
			if !strings.HasPrefix(b, "HTTP/1.1 ") {
				t.Errorf("%s, %s: no answer: %q", name, method, b)
			}
		}
	}
}
