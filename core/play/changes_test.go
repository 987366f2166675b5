package play

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

// Two accounts that exchange their change records end up equal, as two tabs
// of the page do: each change applied once in each.
func TestChangeLogCarriesChangesBetweenAccounts(t *testing.T) {
	clock := func() time.Time { return at }
	la, lb := &ChangeLog{}, &ChangeLog{}
	a := store.New(store.Options{Clock: clock, Journal: la})
	b := store.New(store.Options{Clock: clock, Journal: lb})
	pass := func(from *ChangeLog, to *store.Store) int {
		var d Drained
		if err := json.Unmarshal(from.Drain(), &d); err != nil {
			t.Fatal(err)
		}
		for _, rec := range d.Changes {
			if err := to.Redo(rec); err != nil {
				t.Fatal(err)
			}
		}
		return len(d.Changes)
	}
	a.CreateTable("froma")
	b.CreateTable("fromb")
	if n := pass(la, b); n != 1 {
		t.Errorf("%d records from a", n)
	}
	pass(lb, a)
	e, _ := a.Apply("froma", store.Op{Kind: store.Insert, Entity: &entity.Entity{PartitionKey: "p", RowKey: "r"}})
	pass(la, b)
	got, err := b.Get("froma", "p", "r")
	if err != nil || got.Timestamp != e.Timestamp {
		t.Fatalf("b has %+v, %v", got, err)
	}
	if string(a.Snapshot()) != string(b.Snapshot()) {
		t.Errorf("accounts differ:\n%s\n%s", a.Snapshot(), b.Snapshot())
	}
	// Applied records are not recorded again (no echo between tabs).
	if n := pass(lb, a); n != 0 {
		t.Errorf("b re-recorded %d applied records", n)
	}
}

func TestChangeLogBound(t *testing.T) {
	l := &ChangeLog{}
	for i := 0; i < MaxPendingChanges+5; i++ {
		l.Record([]byte(`{"op":"deleteTable","table":"t"}`))
	}
	var d Drained
	json.Unmarshal(l.Drain(), &d)
	if !d.Full || len(d.Changes) != 0 {
		t.Errorf("full %v, %d changes", d.Full, len(d.Changes))
	}
	json.Unmarshal(l.Drain(), &d)
	if d.Full || len(d.Changes) != 0 {
		t.Errorf("after a drain: full %v, %d changes", d.Full, len(d.Changes))
	}
}
