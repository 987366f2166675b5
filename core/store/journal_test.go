package store

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store/storetest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// replay builds a fresh account from a snapshot (nil: none) and records.
func replay(t testing.TB, snap []byte, recs [][]byte) *Store {
	t.Helper()
	s := New(Options{Clock: stalled()})
	if snap != nil {
		if err := s.Load(snap); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range recs {
		if err := s.Redo(r); err != nil {
			t.Fatalf("record %d: %v\n%s", i, err, r)
		}
	}
	return s
}

var journalTables = []string{"Alpha", "beta", "Gamma"}

// randomChange makes one random change to s (which may fail, as a client's
// request may) and reports whether it succeeded.
func randomChange(r *rand.Rand, s *Store, snaps [][]byte) bool {
	table := journalTables[r.Intn(len(journalTables))]
	if r.Intn(2) == 0 {
		table = strings.ToUpper(table) // table names are case-insensitive
	}
	// A real ETag now and then, so that conditional writes succeed too.
	withETag := func(op Op) Op {
		if op.IfMatch.Kind == MatchETag && r.Intn(2) == 0 {
			if cur, err := s.Get(table, op.Entity.PartitionKey, op.Entity.RowKey); err == nil {
				op.IfMatch.ETag = cur.Timestamp
			}
		}
		return op
	}
	empty := &model{rows: map[mkey]*mentity{}}
	switch x := r.Intn(100); {
	case x < 6:
		_, err := s.CreateTable(table)
		return err == nil
	case x < 9:
		return s.DeleteTable(table) == nil
	case x < 60:
		_, err := s.Apply(table, withETag(randOp(r, empty, randKey(r))))
		return err == nil
	case x < 85:
		pk := randKey(r)
		var ops []Op
		seen := map[string]bool{}
		for i := 0; i < 1+r.Intn(5); i++ {
			op := withETag(randOp(r, empty, pk))
			if !seen[op.Entity.RowKey] {
				seen[op.Entity.RowKey] = true
				ops = append(ops, op)
			}
		}
		_, err := s.Transact(table, ops)
		return err == nil
	case x < 92:
		var ids []SignedIdentifier
		for i := 0; i < r.Intn(3); i++ {
			exp := edm.MinTicks + edm.Ticks(r.Int63n(int64(edm.MaxTicks-edm.MinTicks)))
			ids = append(ids, SignedIdentifier{ID: fmt.Sprint("p", i), HasPolicy: true, Expiry: &exp, Permission: "ra"})
		}
		return s.SetACL(table, ids) == nil
	case x < 97:
		p := defaultProperties()
		p.Cors = []CorsRule{{AllowedOrigins: fmt.Sprint("https://", r.Intn(9), ".example"), AllowedMethods: "GET", MaxAgeInSeconds: r.Intn(100)}}
		return s.SetProperties(p) == nil
	default:
		if len(snaps) == 0 {
			return false
		}
		return s.Restore(snaps[r.Intn(len(snaps))]) == nil
	}
}

func TestJournalReplayEqualsState(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			j := &storetest.Journal{}
			s := New(Options{Clock: stalled(), Journal: j})
			var snaps [][]byte
			succeeded := 0
			for step := 0; step < 500; step++ {
				if randomChange(r, s, snaps) {
					succeeded++
				}
				if step%100 == 0 {
					snaps = append(snaps, s.Snapshot())
				}
			}
			recs := j.Records()
			// One record per change that took effect; none for a failure.
			if len(recs) != succeeded || succeeded < 100 {
				t.Fatalf("%d records for %d successful changes", len(recs), succeeded)
			}
			want := s.Snapshot()
			if got := replay(t, nil, recs).Snapshot(); string(got) != string(want) {
				t.Fatalf("replay differs:\n%s\n%s", want, got)
			}
		})
	}
}

// A compacted snapshot is begun at a log position and finished while writes
// go on: loading it and replaying the log from that position must give the
// final state, whatever the snapshot already holds.
func TestJournalReplayOverLaterSnapshot(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	type mark struct {
		pos  int
		snap []byte
	}
	var marks []mark
	var begun []int
	for step := 0; step < 800; step++ {
		randomChange(r, s, nil)
		if step%40 == 0 {
			begun = append(begun, len(j.Records()))
		}
		if step%40 == 25 {
			// The snapshot finishes later than it began.
			marks = append(marks, mark{begun[len(begun)-1], s.Snapshot()})
		}
	}
	want := s.Snapshot()
	recs := j.Records()
	for _, m := range marks {
		if got := replay(t, m.snap, recs[m.pos:]).Snapshot(); string(got) != string(want) {
			t.Fatalf("snapshot begun at record %d, replayed: state differs", m.pos)
		}
	}
	if len(marks) < 10 {
		t.Fatalf("only %d snapshots", len(marks))
	}
}

func TestConcurrencyJournalOrder(t *testing.T) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	for _, n := range journalTables {
		if _, err := s.CreateTable(n); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(w)))
			for i := 0; i < 300; i++ {
				randomChange(r, s, nil)
			}
		}(w)
	}
	wg.Wait()
	if got, want := replay(t, nil, j.Records()).Snapshot(), s.Snapshot(); string(got) != string(want) {
		t.Fatalf("replay of concurrent changes differs:\n%s\n%s", want, got)
	}
}

func TestJournalFailureIs500(t *testing.T) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	if _, err := s.CreateTable("tbl"); err != nil {
		t.Fatal(err)
	}
	j.Fail(errors.New("disk full"))
	checks := map[string]*tableerr.Error{}
	_, checks["create"] = s.CreateTable("other")
	_, checks["insert"] = s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "r")})
	_, txErr := s.Transact("tbl", []Op{{Kind: Insert, Entity: ent("p", "s")}})
	if txErr == nil {
		t.Fatal("transaction succeeded")
	}
	checks["batch"] = txErr.Err
	checks["acl"] = s.SetACL("tbl", nil)
	checks["properties"] = s.SetProperties(defaultProperties())
	checks["delete"] = s.DeleteTable("tbl")
	for what, err := range checks {
		if code(err) != tableerr.InternalError {
			t.Errorf("%s with a failing journal: %v", what, err)
		}
	}
	if err := s.Restore(s.Snapshot()); err == nil {
		t.Error("restore with a failing journal succeeded")
	}
}

// A writer that found a table before it was deleted must not change it
// after: its change would be recorded after the deletion.
func TestWriteToDeletedTable(t *testing.T) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	if _, err := s.CreateTable("tbl"); err != nil {
		t.Fatal(err)
	}
	tb := s.lookup("tbl")
	if err := s.DeleteTable("tbl"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.commit(tb, []Op{{Kind: Insert, Entity: ent("p", "r")}}, false, make([]*entity.Entity, 1)); err == nil || err.Err.Code != tableerr.TableNotFound {
		t.Errorf("write to a deleted table: %+v", err)
	}
	if _, err := s.setACL(tb, nil); code(err) != tableerr.TableNotFound {
		t.Errorf("ACL of a deleted table: %v", err)
	}
	if n := len(j.Records()); n != 2 {
		t.Errorf("%d records, want create and delete", n)
	}
}

func TestRedoRejectsBadRecords(t *testing.T) {
	s := newStore(t, "tbl")
	before := s.Snapshot()
	for _, rec := range []string{
		``, `{`, `[]`, `{"op":"nope"}`, `{"op":"write","table":"tbl"}`, `{"op":"createTable","table":"a"}`,
		`{"op":"createTable","table":"1bad","created":"2026-01-01T00:00:00Z"}`,
		`{"op":"write","table":"tbl","ts":"2026-01-01T00:00:00Z","put":[{"PartitionKey":"a/b","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","properties":[]}]}`,
		`{"op":"write","table":"tbl","ts":"2026-01-01T00:00:00Z","put":[{"PartitionKey":"a","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","properties":[["n","Edm.Int32","x"]]}]}`,
		`{"op":"acl","table":"tbl","acl":[{"id":""}]}`,
		`{"op":"properties"}`, `{"op":"properties","properties":{"cors":[{"allowedOrigins":""}]}}`,
		`{"op":"restore","doc":{"format":"other"}}`,
		`{"op":"deleteTable","table":"tbl","extra":1}`, `{"op":"deleteTable","table":"tbl"} {}`,
	} {
		if err := s.Redo([]byte(rec)); err == nil {
			t.Errorf("Redo(%s) accepted", rec)
		}
	}
	if got := s.Snapshot(); string(got) != string(before) {
		t.Errorf("a rejected record changed the account:\n%s", got)
	}
}

func FuzzRedo(f *testing.F) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		randomChange(r, s, nil)
	}
	for _, rec := range j.Records() {
		f.Add(rec)
	}
	f.Fuzz(func(t *testing.T, rec []byte) {
		s := newStore(t, "Alpha")
		if err := s.Redo(rec); err != nil {
			return
		}
		// Whatever was accepted leaves an account that round-trips.
		doc := s.Snapshot()
		if err := New(Options{Clock: stalled()}).Restore(doc); err != nil {
			t.Fatalf("state after Redo(%q) does not restore: %v", rec, err)
		}
	})
}

// The account keeps only ACL times its snapshot can hold.
func TestSetACLTimesMustBeStorable(t *testing.T) {
	s := newStore(t, "tbl")
	early := edm.MinTicks - 1
	if err := s.SetACL("tbl", []SignedIdentifier{{ID: "p", HasPolicy: true, Start: &early}}); code(err) != tableerr.InvalidXMLDocument {
		t.Errorf("a start before 1601: %v", err)
	}
	first := edm.MinTicks
	if err := s.SetACL("tbl", []SignedIdentifier{{ID: "p", HasPolicy: true, Start: &first}}); err != nil {
		t.Fatal(err)
	}
	if err := New(Options{Clock: stalled()}).Restore(s.Snapshot()); err != nil {
		t.Errorf("the snapshot does not restore: %v", err)
	}
}

// Replaying a record records nothing: the log being replayed would get it
// again, under a new number.
func TestRedoRecordsNothing(t *testing.T) {
	src := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: src})
	p := s.Properties()
	p.Cors = []CorsRule{{AllowedOrigins: "*", AllowedMethods: "GET", MaxAgeInSeconds: 1}}
	if err := s.SetProperties(p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable("Alpha"); err != nil {
		t.Fatal(err)
	}
	dst := &storetest.Journal{}
	r := New(Options{Clock: stalled(), Journal: dst})
	for _, rec := range src.Records() {
		if err := r.Redo(rec); err != nil {
			t.Fatal(err)
		}
	}
	if got := dst.Records(); len(got) != 0 {
		t.Errorf("replay recorded %q", got)
	}
}
