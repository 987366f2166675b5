package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestTuneRuntime: the server's settings apply when the environment leaves
// them unset, and the environment's win otherwise.
func TestTuneRuntime(t *testing.T) {
	procs, gc := runtime.GOMAXPROCS(0), debug.SetGCPercent(100)
	defer func() { runtime.GOMAXPROCS(procs); debug.SetGCPercent(gc) }()

	runtime.GOMAXPROCS(2)
	debug.SetGCPercent(100)
	tuneRuntime(func(k string) string { return map[string]string{"GOMAXPROCS": "2", "GOGC": "100"}[k] })
	if p, g := runtime.GOMAXPROCS(0), debug.SetGCPercent(100); p != 2 || g != 100 {
		t.Fatalf("with the environment set: GOMAXPROCS %d, GOGC %d", p, g)
	}
	tuneRuntime(func(string) string { return "" })
	if p, g := runtime.GOMAXPROCS(0), debug.SetGCPercent(100); p != serveProcs || g != serveGCPercent {
		t.Fatalf("unset: GOMAXPROCS %d, GOGC %d", p, g)
	}
}
