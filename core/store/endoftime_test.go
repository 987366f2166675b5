package store

import (
	"github.com/tableplay/tableplay/core/store/storetest"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// endOfTimeDoc is an account whose one entity is stamped at the DateTime's
// last instant, as a share link or a crafted snapshot may hold it.
const endOfTimeDoc = `{"format":"tableplay-account","version":1,"tables":[{"name":"Ends","created":"2026-01-02T03:04:05Z","entities":[` +
	`{"PartitionKey":"p","RowKey":"last","Timestamp":"9999-12-31T23:59:59.9999999Z","properties":[["V","Edm.String","end"]]}]}]}`

// TestTimestampsStayInTheirRange (F-TIMESTAMP-END): after an entity
// stamped 9999-12-31T23:59:59.9999999Z, a write that needs a later
// Timestamp is refused with 400 OutOfRangeInput (before: acknowledged
// with 10000-01-01T00:00:00Z, a record no restart could read back);
// tables are still created and entities deleted, and every record the
// account wrote replays.
func TestTimestampsStayInTheirRange(t *testing.T) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	if err := s.Restore([]byte(endOfTimeDoc)); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"Ends", "Upon"} {
		if table == "Upon" {
			if _, err := s.CreateTable("Upon"); err != nil {
				t.Fatalf("a table at the end of time: %v", err)
			}
		}
		for _, kind := range []Kind{Insert, InsertOrReplace, InsertOrMerge} {
			e, err := s.Apply(table, Op{Kind: kind, Entity: ent("p", "next", str("V", "later"))})
			if err == nil {
				t.Fatalf("%s into %s acknowledged with Timestamp %s", kind, table, e.Timestamp)
			}
			if err.Code != tableerr.OutOfRangeInput || err.Rule == nil || err.Rule.ID != "timestamp-end-of-time" {
				t.Fatalf("%s into %s: %v, want OutOfRangeInput timestamp-end-of-time", kind, table, err)
			}
		}
	}
	if _, err := s.Apply("Ends", Op{Kind: Delete, Entity: ent("p", "last"), IfMatch: Match{Kind: MatchAny}}); err != nil {
		t.Fatalf("deleting the last entity: %v", err)
	}
	recs := j.Records()
	for i, r := range recs {
		if strings.Contains(string(r), "10000-") {
			t.Fatalf("record %d leaves the DateTime range: %s", i, r)
		}
	}
	again := replay(t, nil, recs)
	if n, _ := again.Count("Ends"); n != 0 {
		t.Fatalf("replayed: Ends holds %d entities, want 0", n)
	}
	if _, err := again.GetTable("Upon"); err != nil {
		t.Fatalf("replayed: %v", err)
	}
}

// TestStampAtTheEdge: the last Timestamp is given once, then none.
func TestStampAtTheEdge(t *testing.T) {
	if ts, ok := stamp(stalled(), edm.MaxTicks-1, 0); !ok || ts != edm.MaxTicks {
		t.Fatalf("after MaxTicks-1: %v %v", ts, ok)
	}
	if _, ok := stamp(stalled(), edm.MaxTicks, 0); ok {
		t.Fatal("a Timestamp after MaxTicks")
	}
	if _, ok := stamp(stalled(), 0, edm.MaxTicks); ok {
		t.Fatal("a Timestamp after a floor of MaxTicks")
	}
	if ts, ok := stamp(stalled(), 5, 7); !ok || ts <= 7 {
		t.Fatalf("an ordinary stamp: %v %v", ts, ok)
	}
}
