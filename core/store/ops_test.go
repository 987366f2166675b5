package store

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// TestIfMatchTable covers every row and column of the conditional-write table (F-IF-MATCH).
func TestIfMatchTable(t *testing.T) {
	type cond int
	const (
		absent cond = iota
		star
		current
		stale
	)
	tests := []struct {
		kind   Kind
		cond   cond
		exists bool
		want   tableerr.Code
	}{
		{Replace, star, true, ""},
		{Replace, star, false, tableerr.ResourceNotFound},
		{Replace, current, true, ""},
		{Replace, stale, true, tableerr.UpdateConditionNotSatisfied},
		{Replace, stale, false, tableerr.ResourceNotFound},
		{InsertOrReplace, absent, true, ""},
		{InsertOrReplace, absent, false, ""},
		{Merge, star, true, ""},
		{Merge, star, false, tableerr.ResourceNotFound},
		{Merge, current, true, ""},
		{Merge, stale, true, tableerr.UpdateConditionNotSatisfied},
		{Merge, stale, false, tableerr.ResourceNotFound},
		{InsertOrMerge, absent, true, ""},
		{InsertOrMerge, absent, false, ""},
		{Delete, absent, true, tableerr.MissingRequiredHeader},
		{Delete, absent, false, tableerr.MissingRequiredHeader},
		{Delete, star, true, ""},
		{Delete, star, false, tableerr.ResourceNotFound},
		{Delete, current, true, ""},
		{Delete, stale, true, tableerr.UpdateConditionNotSatisfied},
		{Delete, stale, false, tableerr.ResourceNotFound},
		{Insert, absent, false, ""},
		{Insert, absent, true, tableerr.EntityAlreadyExists},
	}
	for _, tt := range tests {
		name := tt.kind.String() + "/" + []string{"absent", "*", "current", "stale"}[tt.cond] + "/exists=" + strconv.FormatBool(tt.exists)
		t.Run(name, func(t *testing.T) {
			s := newStore(t, "tbl")
			var etag edm.Ticks
			if tt.exists {
				e, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "r", str("a", "old"))})
				if err != nil {
					t.Fatal(err)
				}
				etag = e.Timestamp
			}
			m := Match{}
			switch tt.cond {
			case star:
				m.Kind = MatchAny
			case current:
				m = Match{Kind: MatchETag, ETag: etag}
			case stale:
				m = Match{Kind: MatchETag, ETag: etag - 1}
			}
			before := s.Snapshot()
			out, err := s.Apply("tbl", Op{Kind: tt.kind, Entity: ent("p", "r", str("b", "new")), IfMatch: m})
			if code(err) != tt.want {
				t.Fatalf("got %v, want %s", err, tt.want)
			}
			if err != nil {
				if string(s.Snapshot()) != string(before) {
					t.Error("a failed write changed the store")
				}
				return
			}
			got, gerr := s.Get("tbl", "p", "r")
			if tt.kind == Delete {
				if code(gerr) != tableerr.ResourceNotFound {
					t.Errorf("entity survived delete: %v", gerr)
				}
				return
			}
			if gerr != nil || got.Timestamp != out.Timestamp || got.Timestamp <= etag {
				t.Fatalf("stored %+v (returned %+v)", got, out)
			}
			_, hasA := got.Get("a")
			_, hasB := got.Get("b")
			wantA := tt.exists && (tt.kind == Merge || tt.kind == InsertOrMerge)
			if hasA != wantA || !hasB {
				t.Errorf("properties after %s: a=%v b=%v", tt.kind, hasA, hasB)
			}
		})
	}
}

func TestTimestampsStrictlyIncrease(t *testing.T) {
	s := newStore(t, "tbl") // the clock never moves
	var last edm.Ticks
	for i := 0; i < 50; i++ {
		e, err := s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: ent("p", "r", i32("n", i))})
		if err != nil {
			t.Fatal(err)
		}
		if e.Timestamp <= last {
			t.Fatalf("write %d: Timestamp %s not after %s", i, e.Timestamp, last)
		}
		last = e.Timestamp
	}
	// The client's Timestamp never wins.
	e := ent("p", "x")
	e.Timestamp = edm.MinTicks
	out, _ := s.Apply("tbl", Op{Kind: Insert, Entity: e})
	if out.Timestamp <= last {
		t.Errorf("client Timestamp used: %s", out.Timestamp)
	}
}

func TestMerge(t *testing.T) {
	s := newStore(t, "tbl")
	s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "r", str("keep", "k"), str("change", "1"))})
	out, err := s.Apply("tbl", Op{Kind: Merge, IfMatch: Match{Kind: MatchAny}, Entity: ent("p", "r", i32("change", 2), str("add", "a"))})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range out.Properties {
		names = append(names, p.Name+":"+p.Value.Type().String())
	}
	// As on the live service: an insert keeps the client's order, a write
	// through PUT or MERGE leaves the properties in ordinal name order.
	if strings.Join(names, ",") != "add:Edm.String,change:Edm.Int32,keep:Edm.String" {
		t.Errorf("merged %v", names)
	}
	ins, _ := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "order", str("z", "1"), str("B", "2"), str("a", "3"))})
	if ins.Properties[0].Name != "z" || ins.Properties[2].Name != "a" {
		t.Errorf("insert reordered: %+v", ins.Properties)
	}
	up, _ := s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: ent("p", "order2", str("z", "1"), str("B", "2"), str("a", "3"))})
	if up.Properties[0].Name != "B" || up.Properties[1].Name != "a" || up.Properties[2].Name != "z" {
		t.Errorf("upsert not in ordinal order: %+v", up.Properties)
	}
	// Two halves within the limits alone, over them merged: refused, unchanged.
	big := func(prefix string, n int) *entity.Entity {
		e := ent("p", "big")
		for i := 0; i < n; i++ {
			e.Properties = append(e.Properties, i32(prefix+strconv.Itoa(i), i))
		}
		return e
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: big("a", 200)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("tbl", Op{Kind: InsertOrMerge, Entity: big("b", 60)}); code(err) != tableerr.TooManyProperties {
		t.Errorf("merge over 255 properties: %v", err)
	}
	huge := func(name string) *entity.Entity {
		e := ent("p", "huge")
		for i := 0; i < 9; i++ {
			e.Properties = append(e.Properties, str(name+strconv.Itoa(i), strings.Repeat("x", 32000)))
		}
		return e
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: huge("a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("tbl", Op{Kind: Merge, IfMatch: Match{Kind: MatchAny}, Entity: huge("b")}); code(err) != tableerr.EntityTooLarge {
		t.Errorf("merge over 1 MiB: %v", err)
	}
	if got, _ := s.Get("tbl", "p", "huge"); len(got.Properties) != 9 {
		t.Errorf("failed merge changed the entity: %d properties", len(got.Properties))
	}
}
