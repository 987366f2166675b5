//go:build unix

package room_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// The room's figures through workerd (docs/hosting.md): run with
// go test -run '^$' -bench Room -benchtime 200x ./workers/room

// percentiles and rss are workers/workerdtest's.
func percentiles(b *testing.B, d []time.Duration) { workerdtest.Percentiles(b, d) }

func rss(b *testing.B, pid int) int64 { return workerdtest.RSS(b, pid) }

// timed runs op b.N times and reports p50, p99 and workerd's CPU time per
// operation.
func timed(b *testing.B, w *workerd, op func(i int) error) { workerdtest.Measure(b, w.s, op) }

// BenchmarkRoomInsert is one entity insert through workerd, each answered
// once its journal row is stored.
func BenchmarkRoomInsert(b *testing.B) {
	w := startWorkerd(b)
	_, tc := roomTable(b, w, nil, "bench")
	ctx := context.Background()
	timed(b, w, func(i int) error {
		_, err := tc.AddEntity(ctx, entityJSON("p", fmt.Sprintf("%08d", i), map[string]any{"V": "value", "N": i}), nil)
		return err
	})
}

// BenchmarkRoomPointRead is one point read through workerd.
func BenchmarkRoomPointRead(b *testing.B) {
	w := startWorkerd(b)
	_, tc := roomTable(b, w, nil, "bench")
	ctx := context.Background()
	if _, err := tc.AddEntity(ctx, entityJSON("p", "r", map[string]any{"V": "value"}), nil); err != nil {
		b.Fatal(err)
	}
	timed(b, w, func(int) error {
		_, err := tc.GetEntity(ctx, "p", "r", nil)
		return err
	})
}

// BenchmarkRoomCreate is POST /rooms then the room's first answer (a table
// created through the SDK): a new object, its Go instance and its storage.
func BenchmarkRoomCreate(b *testing.B) {
	w := startWorkerd(b)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r := w.mustRoom(nil)
		if _, err := tableClient(b, w, r, "first").CreateTable(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, d)
}

// BenchmarkRoomMemory is workerd's resident memory per room: b.N rooms,
// each with a table of 100 entities, over workerd with none.
func BenchmarkRoomMemory(b *testing.B) {
	w := startWorkerd(b)
	base := rss(b, w.pid())
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		r := w.mustRoom(nil)
		tc := tableClient(b, w, r, "mem")
		if _, err := tc.CreateTable(ctx, nil); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 100; j++ {
			if _, err := tc.AddEntity(ctx, entityJSON("p", fmt.Sprint(j), map[string]any{"V": strings.Repeat("x", 200)}), nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(rss(b, w.pid())-base)/float64(b.N)/(1<<20), "MiB/room")
	b.ReportMetric(float64(base)/(1<<20), "MiB-base")
}
