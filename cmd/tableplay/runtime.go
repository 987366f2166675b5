package main

import (
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
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

// memoryFloor is the heap a server may always grow to at 400 % before the
// soft memory limit holds it: below it (an account of up to some 50 MB live,
// about 60,000 typical entities) collections stay rare, as they were chosen
// for; above it, the limit follows the live heap (followLiveHeap), so that a
// million entities hold about twice their live heap, not five times.
const memoryFloor = 256 << 20

// liveHeadroom is how far above the live heap the soft limit lies when it
// follows it: the heap may grow to twice what is live, as with GOGC=100.
const liveHeadroom = 1.0

// tuneRuntime applies the server's runtime settings, each only when its
// environment variable is unset. memory is --memory: a soft memory limit in
// bytes, or 0 for one that follows the live heap, never below memoryFloor.
// The returned func stops the following.
func tuneRuntime(getenv func(string) string, memory int64) (stop func()) {
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(serveProcs)
	}
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	switch {
	case getenv("GOMEMLIMIT") != "":
	case memory > 0:
		debug.SetMemoryLimit(memory)
	default:
		return followLiveHeap(memoryFloor)
	}
	return func() {}
}

// loadHeadroom is the heap, per byte of the data directory, that a start
// lets grow before it collects: a loaded account holds about four bytes of
// heap per byte of its snapshot (blocks are ~0.4× the entities' size by the
// service's formula, the heap ~1.4× it), and the blocks read are garbage
// the size of the snapshot.
const loadHeadroom = 6

// quietLoad readies the runtime for loading an account of dataBytes on
// disk and returns the func that restores it. Loading allocates almost
// only what it keeps, so a collection while it runs would mark the growing
// account over and over for little garbage: at a million entities as much
// CPU as the decoding itself. The collector then waits until the heap
// passes max(memoryFloor, loadHeadroom × dataBytes) (and after a
// collection, twice the live heap), or memory, --memory, when that is set.
// GOGC or GOMEMLIMIT in the environment leave the runtime as it is.
func quietLoad(getenv func(string) string, memory, dataBytes int64) (restore func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gc := debug.SetGCPercent(-1)
	stop := func() { debug.SetMemoryLimit(math.MaxInt64) }
	if memory > 0 {
		debug.SetMemoryLimit(memory)
	} else {
		stop = followLiveHeap(max(memoryFloor, loadHeadroom*dataBytes))
	}
	return func() {
		stop()
		debug.SetGCPercent(gc)
	}
}

// followLiveHeap sets the soft memory limit after every collection to
// max(floor, (1+liveHeadroom) × the live heap): the limit, not GOGC, then
// decides when a large account's heap is collected, while a small one's
// is left to GOGC. It runs as a finalizer of an object made anew after each
// collection (finalizers run once a collection has found their object
// unreachable), so it costs nothing between collections. The returned func
// stops it and lifts the limit.
func followLiveHeap(floor int64) (stop func()) {
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// A pointer field keeps the sentinel out of the tiny allocator,
		// whose blocks are shared and may never be finalized.
		type sentinel struct{ p *int }
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			debug.SetMemoryLimit(followedLimit(floor, sample[0].Value.Uint64()))
			arm()
		})
	}
	debug.SetMemoryLimit(floor)
	arm()
	return func() {
		stopped.Store(true)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// followedLimit is the soft limit for a live heap of live bytes.
func followedLimit(floor int64, live uint64) int64 {
	return max(floor, int64(float64(live)*(1+liveHeadroom)))
}

// parseMemory reads --memory: a number of bytes with an optional unit (KB,
// MB, GB in powers of 1,000; KiB, MiB, GiB in powers of 1,024), or "auto"
// for 0, the limit that follows the live heap.
func parseMemory(s string) (int64, error) {
	if s == "" || s == "auto" {
		return 0, nil
	}
	units := []struct {
		suffix string
		n      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.n
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || f*mult >= math.MaxInt64 || math.IsNaN(f) {
		return 0, errors.New(`--memory: a size such as 2GiB, 512MB or 800000000, or "auto"`)
	}
	return int64(f * mult), nil
}
