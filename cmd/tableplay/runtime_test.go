package main

import (
	"math"
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
	tuneRuntime(func(k string) string {
		return map[string]string{"GOMAXPROCS": "2", "GOGC": "100", "GOMEMLIMIT": "1GiB"}[k]
	}, 0)()
	if p, g := runtime.GOMAXPROCS(0), debug.SetGCPercent(100); p != 2 || g != 100 {
		t.Fatalf("with the environment set: GOMAXPROCS %d, GOGC %d", p, g)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Fatalf("with GOMEMLIMIT set the limit was changed to %d", limit)
	}
	tuneRuntime(func(string) string { return "" }, 3<<30)()
	if limit := debug.SetMemoryLimit(-1); limit != 3<<30 {
		t.Fatalf("--memory 3GiB: limit %d", limit)
	}
	tuneRuntime(func(string) string { return "" }, 0)()
	if p, g := runtime.GOMAXPROCS(0), debug.SetGCPercent(100); p != serveProcs || g != serveGCPercent {
		t.Fatalf("unset: GOMAXPROCS %d, GOGC %d", p, g)
	}
}

// With no --memory the soft limit follows the live heap: after a collection
// it is twice the live heap, never below the floor, and stopping the
// following lifts it.
func TestMemoryLimitFollowsLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const floor = 8 << 20
	ballast := make([][]byte, 0, 64)
	for range 64 {
		ballast = append(ballast, make([]byte, 1<<20)) // 64 MiB live: far above the floor
	}
	stop := followLiveHeap(floor)
	var limit int64
	for range 50 { // the finalizer runs after a collection, on its own goroutine
		runtime.GC()
		runtime.Gosched()
		if limit = debug.SetMemoryLimit(-1); limit != floor {
			break
		}
	}
	if limit < 128<<20 || limit > 256<<20 {
		t.Fatalf("limit %d MiB with 64 MiB live, want about twice the live heap", limit>>20)
	}
	runtime.KeepAlive(ballast)
	stop()
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Fatalf("stopped, the limit is still %d", limit)
	}
	if got := followedLimit(floor, 1<<20); got != floor {
		t.Fatalf("a small live heap: limit %d, want the floor", got)
	}
}

func TestParseMemory(t *testing.T) {
	for in, want := range map[string]int64{"auto": 0, "": 0, "2GiB": 2 << 30, "512MB": 512e6, "1.5GiB": 3 << 29, "800000000": 8e8, "64KiB": 64 << 10} {
		if got, err := parseMemory(in); err != nil || got != want {
			t.Errorf("parseMemory(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"lots", "-1GiB", "0", "NaN", "1e30GB", "GiB"} {
		if _, err := parseMemory(in); err == nil {
			t.Errorf("parseMemory(%q) accepted", in)
		}
	}
}

// While an account loads the collector waits for a heap of loadHeadroom
// times the data directory (or --memory), then the settings before come
// back; GOGC or GOMEMLIMIT in the environment leave the runtime alone.
func TestQuietLoad(t *testing.T) {
	gc := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gc)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	unset := func(string) string { return "" }

	restore := quietLoad(unset, 0, 1<<30)
	g, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	restore()
	if g != -1 || limit != loadHeadroom<<30 {
		t.Fatalf("loading 1 GiB: GOGC %d, limit %d; want off and %d", g, limit, int64(loadHeadroom)<<30)
	}
	if g, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); g != 100 || limit != math.MaxInt64 {
		t.Fatalf("after loading: GOGC %d, limit %d", g, limit)
	}
	restore = quietLoad(unset, 0, 1<<10)
	limit = debug.SetMemoryLimit(-1)
	restore()
	if limit != memoryFloor {
		t.Fatalf("loading 1 KiB: limit %d, want the floor", limit)
	}
	restore = quietLoad(unset, 3<<30, 1<<30)
	limit = debug.SetMemoryLimit(-1)
	restore()
	if limit != 3<<30 {
		t.Fatalf("--memory 3GiB: limit %d while loading", limit)
	}
	restore = quietLoad(func(k string) string { return map[string]string{"GOGC": "50"}[k] }, 0, 1<<30)
	g = debug.SetGCPercent(100)
	restore()
	if g != 100 {
		t.Fatalf("with GOGC set: GOGC changed to %d while loading", g)
	}
}
