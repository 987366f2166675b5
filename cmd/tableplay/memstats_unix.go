//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/metrics"
	"syscall"
)

// memstatsEnv, set to 1, makes the server print its live heap on SIGUSR1:
// how make scale measures it without a network surface for it.
const memstatsEnv = "TABLEPLAY_MEMSTATS"

// watchMemstats, when memstatsEnv is 1, answers each SIGUSR1 with a
// collection and one line on out: "tableplay memstats: live-heap=BYTES
// heap-goal=BYTES". The returned function stops it.
func watchMemstats(getenv func(string) string, out io.Writer) func() {
	if getenv(memstatsEnv) != "1" {
		return func() {}
	}
	sig := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for {
			select {
			case <-sig:
				fmt.Fprintln(out, memstatsLine())
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// memstatsLine collects, then reads the heap the account holds.
func memstatsLine() string {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return fmt.Sprintf("tableplay memstats: live-heap=%d heap-goal=%d", s[0].Value.Uint64(), s[1].Value.Uint64())
}
