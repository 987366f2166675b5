package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// BenchmarkFrontHostileBody sends a 4 MiB body of '[' (as an insert, a
// table's creation and a batch; and, for scale, an insert of one 4 MiB
// string) to the native server as main runs it (the front, core/h1),
// signed with the account's key so that the body is read and judged, and
// reports the process's CPU time per request (the client's part, writing 4
// MiB to a socket, included). The bound is 50 ms.
func BenchmarkFrontHostileBody(b *testing.B) {
	h := newHandlers(serverConfig{addr: "127.0.0.1:0", clock: time.Now})
	front := newFront(h.page, h.api, h.takes, defaultLimits)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go front.Serve(ln)
	defer front.Shutdown(b.Context())
	addr := ln.Addr().String()
	for _, c := range []struct {
		name, path, ctype, body string
		sign                    bool
	}{
		{"insert-open-arrays", "/t", "application/json", strings.Repeat("[", rest.MaxBody), true},
		{"create-open-arrays", "/Tables", "application/json", strings.Repeat("[", rest.MaxBody), true},
		{"batch-open-arrays", "/$batch", "multipart/mixed; boundary=batch_x", strings.Repeat("[", rest.MaxBody), true},
		{"insert-one-long-string", "/t", "application/json", `{"PartitionKey":"p","RowKey":"r","V":"` + strings.Repeat("x", rest.MaxBody-50) + `"}`, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			u, _ := url.Parse("http://" + addr + "/" + rest.WellKnownAccount + c.path)
			start := cpu()
			for i := 0; i < b.N; i++ {
				date := time.Now().UTC().Format(http.TimeFormat)
				auth := ""
				if c.sign {
					auth = "Authorization: " + rest.WellKnown().Sign(date, u) + "\r\n"
				}
				head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nAccept: application/json;odata=nometadata\r\nX-Ms-Version: 2019-02-02\r\nX-Ms-Date: %s\r\n%sContent-Length: %d\r\n\r\n",
					u.Path, addr, c.ctype, date, auth, len(c.body))
				if _, err := conn.Write([]byte(head + c.body)); err != nil {
					b.Fatal(err)
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 400 {
					b.Fatalf("status %d, want 400", resp.StatusCode)
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
