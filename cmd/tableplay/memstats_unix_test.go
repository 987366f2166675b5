//go:build unix

package main

import (
	"io"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMemstats: with TABLEPLAY_MEMSTATS=1 a SIGUSR1 prints the live heap.
func TestMemstats(t *testing.T) {
	r, w := io.Pipe()
	stop := watchMemstats(func(k string) string {
		if k == memstatsEnv {
			return "1"
		}
		return ""
	}, w)
	defer stop()
	lines := make(chan string, 1)
	go func() {
		b := make([]byte, 256)
		n, _ := r.Read(b)
		lines <- string(b[:n])
	}()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-lines:
		if !strings.HasPrefix(l, "tableplay memstats: live-heap=") || strings.Contains(l, "live-heap=0 ") {
			t.Fatalf("line %q", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no memstats line after SIGUSR1")
	}
}
