package store

import (
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/store/storetest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// cosmosNames are table names Cosmos creates and Storage refuses
// (F-COSMOS-TABLE-NAMES): an underscore, CJK, one character, a space
// inside, 254 characters.
var cosmosNames = []string{"my_table", "啊齄丂狛狜", "x", "a b", strings.Repeat("-", 254)}

// TestCosmosTableNamesCreated: under cosmos the names are created and take
// entities, and names Cosmos refuses are 400 InvalidInput; under azure the
// same names are Storage's 400s.
func TestCosmosTableNamesCreated(t *testing.T) {
	s := cosmosStore(t, cosmosNames...)
	for _, n := range cosmosNames {
		if _, err := s.Apply(n, Op{Kind: Insert, Entity: ent("p", "r")}); err != nil {
			t.Errorf("insert into %q: %v", n, err)
		}
		if c, _ := s.Count(n); c != 1 {
			t.Errorf("%q holds %d entities, want 1", n, c)
		}
	}
	for _, n := range []string{"", "a/b", `a\b`, "a#b", "a?b", "ends ", strings.Repeat("-", 255)} {
		if _, err := s.CreateTable(n); err == nil || err.Code != tableerr.InvalidInput || err.Status != 400 {
			t.Errorf("cosmos CreateTable(%q) = %v, want 400 InvalidInput", n, err)
		}
	}
	az := newStore(t)
	for _, n := range cosmosNames {
		if _, err := az.CreateTable(n); err == nil || err.Status != 400 {
			t.Errorf("azure CreateTable(%q) = %v, want a 400", n, err)
		}
	}
}

// TestCosmosTableNamesReload: a cosmos account with such names comes back
// whole from its snapshot, its blocks and its journal; the azure profile
// refuses each, rather than hold a name it would not create.
func TestCosmosTableNamesReload(t *testing.T) {
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Profile: profile.Cosmos(), Journal: j})
	for _, n := range cosmosNames {
		if _, err := s.CreateTable(n); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply(n, Op{Kind: Insert, Entity: ent("p", n)}); err != nil {
			t.Fatal(err)
		}
	}
	want := s.Snapshot()
	loads := map[string]func(*Store) error{
		"snapshot": func(r *Store) error { return r.Load(want) },
		"blocks":   func(r *Store) error { return r.LoadBlocks(feed(blocksOf(t, s))) },
		"journal": func(r *Store) error {
			for _, rec := range j.Records() {
				if err := r.Redo(rec); err != nil {
					return err
				}
			}
			return nil
		},
	}
	for how, load := range loads {
		r := cosmosStore(t)
		if err := load(r); err != nil {
			t.Fatalf("%s under cosmos: %v", how, err)
		}
		if got := r.Snapshot(); string(got) != string(want) {
			t.Errorf("%s under cosmos differs:\n%s\n%s", how, want, got)
		}
		if err := load(newStore(t)); err == nil {
			t.Errorf("%s under azure took names Storage refuses", how)
		}
	}
}
