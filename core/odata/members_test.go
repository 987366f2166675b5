package odata

import (
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// An entity carrying its encoded members (as the store keeps them) is written
// byte for byte as one encoded afresh, at every level, for single entities and
// query pages, with and without $select.
func TestEncodedMembersMatchFreshEncoding(t *testing.T) {
	for _, body := range []string{pyFullBody, pyMinimalBody, pyNoBody,
		`{"PartitionKey":"p","RowKey":"r"}`,
		`{"PartitionKey":"p","RowKey":"r","Nan":"NaN","Nan@odata.type":"Edm.Double","Big":"-9223372036854775808","Big@odata.type":"Edm.Int64","Esc":"\"\\\u0001\u2028<>&"}`} {
		e, err := DecodeEntity([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		e.Timestamp = edm.Ticks(638000000001234567)
		cached := e.Clone()
		cached.Timestamp = e.Timestamp
		cached.KeptSize = cached.Size() // kept: its first writing caches its members
		cached.CacheIn(new(entity.MemberSlot), entity.NewMemberCache(1<<20))
		for _, level := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
			c := &Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "t", Level: level}
			for _, sel := range []*Projection{nil, {Names: []string{"age", "RowKey", "missing"}, Text: "age,RowKey,missing"}} {
				fresh := string(AppendEntity(nil, c, e, sel))
				if got := string(AppendEntity(nil, c, cached, sel)); got != fresh {
					t.Errorf("level %v: cached\n%s\nfresh\n%s", level, got, fresh)
				}
				fresh = string(AppendEntities(nil, c, []*entity.Entity{e, e}, sel))
				if got := string(AppendEntities(nil, c, []*entity.Entity{cached, cached}, sel)); got != fresh {
					t.Errorf("level %v: cached page\n%s\nfresh\n%s", level, got, fresh)
				}
			}
		}
	}
}

// Readers writing out one kept entity in query pages at the same time (the
// first to cache its members racing the others) all write the same bytes;
// run with -race.
func TestKeptEntityWrittenConcurrently(t *testing.T) {
	e, err := DecodeEntity([]byte(pyMinimalBody))
	if err != nil {
		t.Fatal(err)
	}
	e.Timestamp = edm.Ticks(638000000001234567)
	c := &Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "t", Level: MinimalMetadata}
	page := []*entity.Entity{e}
	want := string(AppendEntities(nil, c, page, nil)) // not kept: encoded afresh, nothing cached
	if e.CachedMembers() != nil {
		t.Fatal("an entity the store does not keep cached its members")
	}
	e.KeptSize = e.Size()
	e.CacheIn(new(entity.MemberSlot), entity.NewMemberCache(1<<20))
	got := make(chan string, 8)
	for range 8 {
		go func() { got <- string(AppendEntities(nil, c, page, nil)) }()
	}
	for range 8 {
		if g := <-got; g != want {
			t.Fatalf("concurrent writer\n%s\nwant\n%s", g, want)
		}
	}
	if e.CachedMembers() == nil {
		t.Fatal("a kept entity written in a page did not cache its members")
	}
}

// An entity read from the store and written on its own (a point read) is
// written as ever and keeps its encoded members, in about as many bytes as
// they are long, while its table's cache has room; with none left, or for
// an entity not read from the store (the answer to a write), nothing is
// kept.
func TestSingleEntityWritingKeepsWithinBudget(t *testing.T) {
	read := func(budget int64) *entity.Entity {
		e, err := DecodeEntity([]byte(pyMinimalBody))
		if err != nil {
			t.Fatal(err)
		}
		e.Timestamp = edm.Ticks(638000000001234567)
		e.KeptSize = e.Size()
		e.CacheIn(new(entity.MemberSlot), entity.NewMemberCache(budget))
		return e
	}
	for _, level := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
		c := &Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "t", Level: level}
		e := read(1 << 20)
		want := string(AppendEntity(nil, c, e.Clone(), nil))
		if got := string(AppendEntity(nil, c, e, nil)); got != want {
			t.Errorf("level %v: first writing\n%s\nwant\n%s", level, got, want)
		}
		if got := string(AppendEntity(nil, c, e, nil)); got != want {
			t.Errorf("level %v: from the kept members\n%s\nwant\n%s", level, got, want)
		}
		if kept := e.CachedMembers() != nil; kept != (level != NoMetadata) {
			t.Errorf("level %v: members kept %v", level, kept)
		}
	}
	e := read(1 << 20)
	AppendEntity(nil, &Context{Level: MinimalMetadata}, e, nil)
	m := e.CachedMembers()
	if m == nil {
		t.Fatal("a point read kept nothing")
	}
	if cap(m.JSON) > len(m.JSON)+len(m.JSON)/8 { // an allocation's size class rounds up by less
		t.Fatalf("kept members hold %d bytes of room for %d", cap(m.JSON), len(m.JSON))
	}
	full := read(0)
	AppendEntity(nil, &Context{Level: MinimalMetadata}, full, nil)
	if full.CachedMembers() != nil {
		t.Fatal("an entity whose cache is full kept its members")
	}
	answer := read(1 << 20).Clone() // Clone drops the slot, as a write's answer has none
	AppendEntity(nil, &Context{Level: MinimalMetadata}, answer, nil)
	if answer.CachedMembers() != nil {
		t.Fatal("an entity not read from the store kept its members")
	}
}
