package h1

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/rest"
)

// TestHeaderIsEachRequestsOwn: the header map a connection reuses holds,
// for each request, that request's fields and no other: fields of an
// earlier request do not linger, repeated fields keep all their values,
// and a head too large to keep still reads whole.
func TestHeaderIsEachRequestsOwn(t *testing.T) {
	var seen []string
	api := handlerFunc(func(w rest.ResponseWriter, h rest.Header, r rest.Request) {
		seen = append(seen, fmt.Sprintf("%d %q %q %q", len(r.Header), r.Header["X-First"], r.Header["X-Twice"], r.Header["X-Field-40"]))
		w.Write([]byte("ok"))
	})
	s := &Server{API: api, Fallback: &http.Server{}, conns: map[*conn]bool{}}
	s.handoff = newHandoffListener(nil)
	many := ""
	for i := 0; i < 41; i++ {
		many += fmt.Sprintf("X-Field-%d: %d\r\n", i, i)
	}
	in := "GET /a HTTP/1.1\r\nHost: h\r\nX-First: 1\r\nX-Twice: a\r\nX-Twice: b\r\n\r\n" +
		"GET /a HTTP/1.1\r\nHost: h\r\nX-Other: 2\r\n\r\n" +
		"GET /a HTTP/1.1\r\nHost: h\r\n" + many + "\r\n" +
		"GET /a HTTP/1.1\r\nHost: h\r\nX-Twice: c\r\n\r\n"
	mc := &memConn{in: []byte(in), step: len(in)}
	c := newConn(s, mc)
	s.track(c)
	c.serve()
	want := []string{
		`2 ["1"] ["a" "b"] []`,
		`1 [] [] []`,
		`41 [] [] ["40"]`,
		`1 [] ["c"] []`,
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("headers seen:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}
