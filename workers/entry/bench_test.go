//go:build unix

package main

import (
	"context"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// The entry's figures through workerd (docs/hosting.md): run with
// go test -run '^$' -bench Workerd -benchtime 300x ./workers/entry

// BenchmarkWorkerdCreateRoom is a room's start as a reader sees it, through
// the Go entry: POST /rooms, then the Go SDK's first request with the
// connection string (create a table).
func BenchmarkWorkerdCreateRoom(b *testing.B) {
	srv := workerdtest.Start(b, workerdtest.Options{})
	ctx := context.Background()
	d := make([]time.Duration, 0, b.N)
	cpu := workerdtest.CPUTime(b, srv.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r := createRoom(b, srv.URL, "")
		svc, err := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
		if err == nil {
			_, err = svc.CreateTable(ctx, "first", nil)
		}
		if err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	workerdtest.Percentiles(b, d)
	b.ReportMetric(float64((workerdtest.CPUTime(b, srv.Pid())-cpu).Microseconds())/float64(b.N), "workerd-cpu-µs/op")
}

// BenchmarkWorkerdPointRead is one entity read by the Go SDK through the
// Go entry and the room (BenchmarkRoomPointRead of workers/room reads the
// same through the JavaScript test entry: the difference is the entry's).
func BenchmarkWorkerdPointRead(b *testing.B) {
	srv := workerdtest.Start(b, workerdtest.Options{})
	r := createRoom(b, srv.URL, "")
	svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "reads", nil); err != nil {
		b.Fatal(err)
	}
	tc := svc.NewClient("reads")
	if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","Name":"Ada"}`), nil); err != nil {
		b.Fatal(err)
	}
	d := make([]time.Duration, 0, b.N)
	cpu := workerdtest.CPUTime(b, srv.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := tc.GetEntity(ctx, "p", "r", nil); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	workerdtest.Percentiles(b, d)
	b.ReportMetric(float64((workerdtest.CPUTime(b, srv.Pid())-cpu).Microseconds())/float64(b.N), "workerd-cpu-µs/op")
}
