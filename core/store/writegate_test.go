package store

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/tableplay/tableplay/core/store/storetest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// gatedJournal is a journal that can say, before a change, that it cannot
// take one (a data directory found read-only at start).
type gatedJournal struct {
	storetest.Journal
	mu     sync.Mutex
	closed error
}

func (g *gatedJournal) Writable() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

func (g *gatedJournal) shut(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = err
}

// Every kind of change is refused before it is applied when the journal's
// gate says it cannot take one: 403 AuthorizationFailure saying the account
// is read-only, nothing recorded, the account as it was, reads unaffected.
// (Without the gate the store made the change in memory, then answered
// 500 for it: what the page showed next was not what a restart brings.)
func TestWriteGateRefusesBeforeApplying(t *testing.T) {
	j := &gatedJournal{}
	s := New(Options{Clock: stalled(), Journal: j})
	if _, err := s.CreateTable("tbl"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "r")}); err != nil {
		t.Fatal(err)
	}
	before, records := s.Snapshot(), len(j.Records())
	j.shut(errors.New("read-only: the disk is full"))
	checks := map[string]*tableerr.Error{}
	_, checks["create"] = s.CreateTable("other")
	_, checks["insert"] = s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "s")})
	_, checks["replace"] = s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: ent("p", "r")})
	_, checks["delete entity"] = s.Apply("tbl", Op{Kind: Delete, Entity: ent("p", "r"), IfMatch: Match{Kind: MatchAny}})
	_, txErr := s.Transact("tbl", []Op{{Kind: Insert, Entity: ent("p", "t")}, {Kind: Insert, Entity: ent("p", "u")}})
	if txErr == nil {
		t.Fatal("transaction succeeded")
	}
	checks["batch"] = txErr.Err
	checks["acl"] = s.SetACL("tbl", nil)
	checks["properties"] = s.SetProperties(defaultProperties())
	checks["delete table"] = s.DeleteTable("tbl")
	for what, err := range checks {
		if code(err) != tableerr.AuthorizationFailure || err.Status != 403 || !strings.Contains(err.Message, "read-only") || !strings.Contains(err.Message, "Nothing was changed") {
			t.Errorf("%s through a closed gate: %+v", what, err)
		}
	}
	if err := s.Restore(before); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("restore through a closed gate: %v", err)
	}
	if got := s.Snapshot(); !bytes.Equal(got, before) {
		t.Error("a refused change altered the account")
	}
	if n := len(j.Records()); n != records {
		t.Errorf("%d records after the gate closed, want %d", n, records)
	}
	if e, err := s.Get("tbl", "p", "r"); err != nil || e.RowKey != "r" {
		t.Errorf("read through a closed gate: %v %v", e, err)
	}
	// Open again, changes are made as before.
	j.shut(nil)
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "s")}); err != nil {
		t.Errorf("insert through an open gate: %v", err)
	}
}
