package main

import (
	"runtime"
	"runtime/debug"
)

// serveProcs and serveGCPercent are the Go runtime settings the server runs
// with unless GOMAXPROCS or GOGC say otherwise. With several processors the
// runtime wakes idle threads to look for work each time a request's
// goroutine blocks and resumes on the network; one processor still serves
// many connections at once, as Azurite serves them on one thread. Collecting
// at 400 % heap growth instead of 100 % makes the collector, which scans the
// whole account each cycle, run a quarter as often, for a heap that may grow
// to five times the account instead of twice. Measured with make perf on 2
// cores (server CPU per operation, median of 3 runs, load 8-10): one-client
// inserts 110 µs by default, 76 with one processor, 56 with both; a batch of
// 100 inserts 1,600, 1,450, 1,150; 16 clients' inserts 54, 48, 42.
const (
	serveProcs     = 1
	serveGCPercent = 400
)

// tuneRuntime applies the server's runtime settings, each only when its
// environment variable is unset.
func tuneRuntime(getenv func(string) string) {
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(serveProcs)
	}
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}
