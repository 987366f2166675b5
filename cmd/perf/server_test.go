package main

import (
	"os"
	"testing"
	"time"
)

// TestParseUsage: minflt, utime and stime are read from their fields of
// /proc/<pid>/stat, counted past a command name holding spaces and ')'.
func TestParseUsage(t *testing.T) {
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 7321 0 5 0 250 40 0 0 20 0 3 0 100 0 0\n"
	u, err := parseUsage(stat)
	if err != nil || u.faults != 7321 || u.cpu != 2900*time.Millisecond {
		t.Fatalf("got %+v, %v; want 7321 faults, 2.9 s", u, err)
	}
	if _, err := parseUsage("4242 (x) S 1 2"); err == nil {
		t.Error("a short line read")
	}
	// This process has touched memory, so its own figures are not zero.
	if u, err := readUsage(os.Getpid()); err != nil || u.faults == 0 {
		t.Errorf("own usage %+v, %v", u, err)
	}
}
