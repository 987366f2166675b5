package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// BenchmarkFrontHostileBody sends a 4 MiB body of '[' (as an insert, a
// merge, a table's creation and a batch; and, for scale, an insert of one
// 4 MiB string) to the native server as main runs it (the front, core/h1),
// signed with the account's key so that the body is read and judged, into
// a table that exists, and reports the process's CPU time per request (the
// client's part, writing 4 MiB to a socket, included). The expect cases
// send "Expect: 100-continue", as curl does for a large body: the front
// hands those to net/http. The bound is 50 ms.
func BenchmarkFrontHostileBody(b *testing.B) {
	st := store.New(store.Options{Clock: time.Now})
	if _, err := st.CreateTable("hostile"); err != nil {
		b.Fatal(err)
	}
	h := newHandlers(serverConfig{addr: "127.0.0.1:0", clock: time.Now, store: st})
	front := newFront(h.page, h.api, h.takes, defaultLimits)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go front.Serve(ln)
	defer front.Shutdown(b.Context())
	addr := ln.Addr().String()
	arrays := strings.Repeat("[", rest.MaxBody)
	for _, c := range []struct {
		name, method, path, ctype, body string
		expect                          bool
		want                            int
	}{
		{"insert-open-arrays", "POST", "/hostile", "application/json", arrays, false, 400},
		{"insert-open-arrays-expect", "POST", "/hostile", "application/json", arrays, true, 400},
		{"merge-open-arrays", "MERGE", "/hostile(PartitionKey='p',RowKey='r')", "application/json", arrays, false, 400},
		{"create-open-arrays", "POST", "/Tables", "application/json", arrays, false, 400},
		{"create-open-arrays-expect", "POST", "/Tables", "application/json", arrays, true, 400},
		{"batch-open-arrays", "POST", "/$batch", "multipart/mixed; boundary=batch_x", arrays, false, 400},
		{"insert-one-long-string", "POST", "/hostile", "application/json", `{"PartitionKey":"p","RowKey":"r","V":"` + strings.Repeat("x", rest.MaxBody-50) + `"}`, false, 400},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			u, _ := url.Parse("http://" + addr + "/" + rest.WellKnownAccount + c.path)
			expect := ""
			if c.expect {
				expect = "Expect: 100-continue\r\n"
			}
			start := cpu()
			for i := 0; i < b.N; i++ {
				date := time.Now().UTC().Format(http.TimeFormat)
				auth := "Authorization: " + rest.WellKnown().Sign(date, u) + "\r\n"
				head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nAccept: application/json;odata=nometadata\r\nX-Ms-Version: 2019-02-02\r\nX-Ms-Date: %s\r\n%s%sContent-Length: %d\r\n\r\n",
					c.method, u.EscapedPath(), addr, c.ctype, date, auth, expect, len(c.body))
				if _, err := conn.Write([]byte(head + c.body)); err != nil {
					b.Fatal(err)
				}
				resp, err := http.ReadResponse(br, nil)
				for err == nil && resp.StatusCode == http.StatusContinue {
					resp, err = http.ReadResponse(br, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.want {
					b.Fatalf("status %d, want %d: %s", resp.StatusCode, c.want, body)
				}
			}
			b.ReportMetric(float64(cpu()-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpu is the process's CPU time (user and system) in nanoseconds.
func cpu() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
