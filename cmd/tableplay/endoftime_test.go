package main

import (
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// TestEndOfTimeRestarts (F-TIMESTAMP-END): a data directory whose account
// holds an entity stamped 9999-12-31T23:59:59.9999999Z refuses the next
// write with 400 OutOfRangeInput rather than log a Timestamp past the
// type's range, and the server starts again from it (before: the write
// was acknowledged, and the restart refused "not an ISO 8601 date-time").
func TestEndOfTimeRestarts(t *testing.T) {
	dir := t.TempDir()
	open := func() account {
		a, err := openAccount(dataOptions{dir: dir, fail: func(err error) { t.Error(err) }}, time.Now)
		if err != nil {
			t.Fatalf("start: %v", err)
		}
		return a
	}
	a := open()
	doc := `{"format":"tableplay-account","version":1,"tables":[{"name":"Ends","created":"2026-01-02T03:04:05Z","entities":[` +
		`{"PartitionKey":"p","RowKey":"last","Timestamp":"9999-12-31T23:59:59.9999999Z","properties":[]}]}]}`
	if err := a.store.Restore([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	_, err := a.store.Apply("Ends", store.Op{Kind: store.Insert, Entity: &entity.Entity{PartitionKey: "p", RowKey: "next"}})
	if err == nil || err.Code != tableerr.OutOfRangeInput {
		t.Fatalf("a write after the last instant: %v, want OutOfRangeInput", err)
	}
	if _, err := a.store.CreateTable("Upon"); err != nil {
		t.Fatal(err)
	}
	a.close()
	b := open()
	defer b.close()
	if n, err := b.store.Count("Ends"); err != nil || n != 1 {
		t.Fatalf("after the restart: %d entities, %v", n, err)
	}
	if _, err := b.store.GetTable("Upon"); err != nil {
		t.Fatal(err)
	}
}
