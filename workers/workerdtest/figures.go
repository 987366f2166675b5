//go:build unix

package workerdtest

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Percentiles reports the median and the 99th percentile of d as metrics
// (p50-µs, p99-µs).
func Percentiles(b *testing.B, d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	at := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// CPUTime is a process's user and system CPU time so far (Linux's /proc;
// elsewhere the benchmark skips).
func CPUTime(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The fields after the command's closing parenthesis; utime and stime
	// are the 14th and 15th of the line, in clock ticks (100 a second here).
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// RSS is a process's resident memory in bytes (Linux's /proc; elsewhere the
// benchmark skips).
func RSS(b testing.TB, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// Measure runs op b.N times against s and reports each run's median and
// 99th percentile (Percentiles) and workerd's CPU time per run.
func Measure(b *testing.B, s *Server, op func(i int) error) {
	d := make([]time.Duration, 0, b.N)
	cpu := CPUTime(b, s.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	Percentiles(b, d)
	b.ReportMetric(float64((CPUTime(b, s.Pid())-cpu).Microseconds())/float64(b.N), "workerd-cpu-µs/op")
}
