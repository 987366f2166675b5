package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/sdktest"
)

// BenchmarkSDKInsert measures write throughput through the whole server:
// the Go SDK inserting small entities over loopback, from 1 and from 16
// concurrent writers, with the account in memory and kept in a data
// directory (every insert fsynced before its answer; concurrent inserts
// share fsyncs). It reports inserts per second and, on disk, fsyncs per
// insert.
func BenchmarkSDKInsert(b *testing.B) {
	for _, mode := range []string{"in-memory", "data"} {
		for _, writers := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/writers=%d", mode, writers), func(b *testing.B) {
				benchInsert(b, mode == "in-memory", writers)
			})
		}
	}
}

func benchInsert(b *testing.B, inMemory bool, writers int) {
	acct, err := openAccount(dataOptions{dir: b.TempDir(), inMemory: inMemory, fail: func(err error) { b.Error(err) }}, time.Now)
	if err != nil {
		b.Fatal(err)
	}
	defer acct.close()
	srv := httptest.NewServer(newServer(serverConfig{clock: time.Now, store: acct.store}))
	defer srv.Close()
	svc := sdktest.Service(b, srv.URL+"/"+rest.WellKnownAccount, rest.WellKnownAccount, rest.WellKnownKey,
		&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}})
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "bench", nil); err != nil {
		b.Fatal(err)
	}
	c := svc.NewClient("bench")
	var before uint64
	if acct.log != nil {
		before = acct.log.Stats().Syncs
	}
	var n atomic.Int64
	b.SetParallelism(writers)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			e := fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"r%d","Name":"entity %d","N":%d}`, i%16, i, i, i)
			if _, err := c.AddEntity(ctx, []byte(e), nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "inserts/s")
	if acct.log != nil {
		b.ReportMetric(float64(acct.log.Stats().Syncs-before)/float64(b.N), "fsyncs/insert")
	}
}
