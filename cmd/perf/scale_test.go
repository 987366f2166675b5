package main

import (
	"os"
	"reflect"
	"testing"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// TestParseSizes: counts with k and M suffixes; anything else, a zero, or
// a count that is not whole batches is refused.
func TestParseSizes(t *testing.T) {
	got, err := parseSizes("100000, 300k,1M")
	if err != nil || !reflect.DeepEqual(got, []int{100000, 300000, 1000000}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "-100", "1G", "150", "1.5M", "100k,", "999999999M"} {
		if got, err := parseSizes(bad); err == nil {
			t.Errorf("%q read as %v", bad, got)
		}
	}
}

// TestParseStatus: VmRSS and VmHWM in bytes; a status without them, or in
// another unit, is an error.
func TestParseStatus(t *testing.T) {
	m, err := parseStatus("Name:\tx\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t5\n")
	if err != nil || m.rss != 100<<20 || m.peak != 200<<20 {
		t.Fatalf("got %+v, %v", m, err)
	}
	for _, bad := range []string{"Name:\tx\n", "VmHWM:\t1 kB\n", "VmHWM:\t1 kB\nVmRSS:\t1 MB\n", "VmHWM:\tx kB\nVmRSS:\t1 kB\n"} {
		if m, err := parseStatus(bad); err == nil {
			t.Errorf("%q read as %+v", bad, m)
		}
	}
	if m, err := readMemory(os.Getpid()); err != nil || m.rss == 0 || m.peak < m.rss {
		t.Errorf("own memory %+v, %v", m, err)
	}
}

// TestParseMemstats: the live heap from tableplay's SIGUSR1 line; other
// lines are not it.
func TestParseMemstats(t *testing.T) {
	if n, ok := parseMemstats("tableplay memstats: live-heap=123456 heap-goal=999"); !ok || n != 123456 {
		t.Fatalf("got %d, %v", n, ok)
	}
	for _, bad := range []string{"account: in memory", "tableplay memstats: live-heap=x heap-goal=1", "tableplay memstats: live-heap=-5"} {
		if n, ok := parseMemstats(bad); ok {
			t.Errorf("%q read as %d", bad, n)
		}
	}
}

// TestScaleEntity: the loaded entity is valid and about 300 bytes by the
// service's formula, as the loader sent.
func TestScaleEntity(t *testing.T) {
	for _, i := range []int{0, 7, 999999} {
		e, err := odata.DecodeEntity(storetest.ScaleEntity(scalePartition(i/1000), rowKey(i%1000), i))
		if err != nil {
			t.Fatalf("entity %d: %v", i, err.Message)
		}
		if n := e.Size(); n < 250 || n > 400 || len(e.Properties) != 10 {
			t.Errorf("entity %d: %d bytes, %d properties", i, n, len(e.Properties))
		}
	}
}
