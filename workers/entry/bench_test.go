//go:build unix

package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// The entry's figures through workerd (docs/hosting.md): run with
// go test -run '^$' -bench Workerd -benchtime 300x ./workers/entry

// BenchmarkWorkerdCreateRoom is a room's start as a reader sees it, through
// the Go entry: POST /rooms, then the Go SDK's first request with the
// connection string (create a table).
func BenchmarkWorkerdCreateRoom(b *testing.B) {
	srv := workerdtest.Start(b, workerdtest.Options{Env: []string{"ROOM_CREATE_PER_CLIENT=0", "ROOM_CREATE_TOTAL=0"}})
	ctx := context.Background()
	workerdtest.Measure(b, srv, func(int) error {
		r := createRoom(b, srv.URL, "")
		svc, err := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
		if err == nil {
			_, err = svc.CreateTable(ctx, "first", nil)
		}
		return err
	})
}

// BenchmarkWorkerdPointRead is one entity read by the Go SDK through the
// Go entry and the room (BenchmarkRoomPointRead of workers/room reads the
// same through the JavaScript test entry: the difference is the entry's).
func BenchmarkWorkerdPointRead(b *testing.B) {
	srv := workerdtest.Start(b, workerdtest.Options{Env: []string{"ROOM_CREATE_PER_CLIENT=0", "ROOM_CREATE_TOTAL=0"}})
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
	workerdtest.Measure(b, srv, func(int) error {
		_, err := tc.GetEntity(ctx, "p", "r", nil)
		return err
	})
}

// BenchmarkWorkerdInsert is one entity insert by the Go SDK through the Go
// entry and the room, answered once its row is stored (BenchmarkRoomInsert
// of workers/room inserts through the JavaScript test entry).
func BenchmarkWorkerdInsert(b *testing.B) {
	srv := workerdtest.Start(b, workerdtest.Options{Env: []string{"ROOM_CREATE_PER_CLIENT=0", "ROOM_CREATE_TOTAL=0"}})
	r := createRoom(b, srv.URL, "")
	svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "inserts", nil); err != nil {
		b.Fatal(err)
	}
	tc := svc.NewClient("inserts")
	workerdtest.Measure(b, srv, func(i int) error {
		_, err := tc.AddEntity(ctx, []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%08d","V":"value","N":%d}`, i, i)), nil)
		return err
	})
}
