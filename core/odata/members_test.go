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

// A kept entity written on its own (a point read, the answer to its write)
// is written as ever and keeps no encoded members, so that reading rows at
// random does not grow the account; a query page keeps them, in about as
// many bytes as they are long.
func TestSingleEntityWritingKeepsNothing(t *testing.T) {
	e, err := DecodeEntity([]byte(pyMinimalBody))
	if err != nil {
		t.Fatal(err)
	}
	e.Timestamp = edm.Ticks(638000000001234567)
	e.KeptSize = e.Size()
	e.CacheIn(new(entity.MemberSlot), entity.NewMemberCache(1<<20))
	for _, level := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
		c := &Context{Base: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "t", Level: level}
		if got, want := string(AppendEntity(nil, c, e, nil)), string(AppendEntity(nil, c, e.Clone(), nil)); got != want {
			t.Errorf("level %v: kept\n%s\nwant\n%s", level, got, want)
		}
	}
	if e.CachedMembers() != nil {
		t.Fatal("writing a single entity kept its members")
	}
	AppendEntities(nil, &Context{Level: MinimalMetadata}, []*entity.Entity{e}, nil)
	m := e.CachedMembers()
	if m == nil {
		t.Fatal("a query page kept nothing")
	}
	if cap(m.JSON) > len(m.JSON)+len(m.JSON)/8 { // an allocation's size class rounds up by less

		t.Fatalf("kept members hold %d bytes of room for %d", cap(m.JSON), len(m.JSON))
	}
}
