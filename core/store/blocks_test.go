package store

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

// blocksOf is the account's snapshot blocks.
func blocksOf(t testing.TB, s *Store) [][]byte {
	t.Helper()
	var out [][]byte
	if err := s.WriteBlocks(func(b []byte) error { out = append(out, bytes.Clone(b)); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// feed is a LoadBlocks source of the blocks given.
func feed(blocks [][]byte) func() ([]byte, error) {
	return func() ([]byte, error) {
		if len(blocks) == 0 {
			return nil, io.EOF
		}
		b := blocks[0]
		blocks = blocks[1:]
		return b, nil
	}
}

// bigStore is richStore with a table large enough for several entity
// blocks, a stored access policy and CORS rules.
func bigStore(t testing.TB) *Store {
	t.Helper()
	s := richStore(t)
	if _, err := s.CreateTable("Many"); err != nil {
		t.Fatal(err)
	}
	for p := range 4 {
		var ops []Op
		for r := range 100 {
			ops = append(ops, Op{Kind: Insert, Entity: ent("part"+rk(p), rk(r), str("Text", strings.Repeat("x", 900)), i32("N", r))})
		}
		if _, err := s.Transact("Many", ops); err != nil {
			t.Fatal(err)
		}
	}
	doc := strings.Replace(string(s.Snapshot()), `"name":"Many",`, `"name":"Many","acl":[{"id":"p1","expiry":"2030-01-01T00:00:00.0000000Z","permission":"r"}],`, 1)
	doc = strings.Replace(doc, `"cors":null`, `"cors":[{"allowedOrigins":"*","allowedMethods":"GET","allowedHeaders":"","exposedHeaders":"","maxAgeInSeconds":5}]`, 1)
	r := New(Options{Clock: stalled()})
	if err := r.Restore([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBlocksRoundTrip: an account written as blocks and loaded back is the
// same account — every type and special value, policies, properties, a
// table spread over several blocks, an empty table.
func TestBlocksRoundTrip(t *testing.T) {
	s := bigStore(t)
	want := s.Snapshot()
	if !strings.Contains(string(want), `"id":"p1"`) || !strings.Contains(string(want), `"maxAgeInSeconds":5`) {
		t.Fatalf("the fixture lacks its policy or CORS rule: %s", want[:200])
	}
	blocks := blocksOf(t, s)
	entityBlocks := 0
	for _, b := range blocks {
		if b[0] == 'E' {
			entityBlocks++
		}
	}
	if entityBlocks < 3 {
		t.Fatalf("%d entity blocks: the table should span several", entityBlocks)
	}
	r := newStore(t, "Other")
	if err := r.LoadBlocks(feed(blocks)); err != nil {
		t.Fatal(err)
	}
	if got := r.Snapshot(); !bytes.Equal(got, want) {
		t.Fatalf("round trip differs:\n%s\n%s", want, got)
	}
	// New Timestamps stay above the loaded ones.
	if _, err := r.Apply("Many", Op{Kind: Insert, Entity: ent("z", "z")}); err != nil {
		t.Fatal(err)
	}
	e, _ := r.Get("Many", "z", "z")
	old, _ := r.Get("Many", "part"+rk(3), rk(99))
	if e.Timestamp <= old.Timestamp {
		t.Errorf("new Timestamp %v not above the loaded %v", e.Timestamp, old.Timestamp)
	}
}

// TestBlocksRefused: a snapshot cut short, missing a block, with a block
// repeated, changed or out of order is refused, and the account is left as
// it was.
func TestBlocksRefused(t *testing.T) {
	blocks := blocksOf(t, bigStore(t))
	n := len(blocks)
	cases := map[string][][]byte{
		"no blocks":               nil,
		"no end block":            blocks[:n-1],
		"an entity block lost":    append(append([][]byte{}, blocks[:n-3]...), blocks[n-2:]...),
		"a block repeated":        append(append(append([][]byte{}, blocks[:n-1]...), blocks[n-2]), blocks[n-1]),
		"the account block twice": append([][]byte{blocks[0]}, blocks...),
		"no account block":        blocks[1:],
		"a block after the end":   append(append([][]byte{}, blocks...), blocks[1]),
		"an unknown block":        append([][]byte{blocks[0], {'Q'}}, blocks[1:]...),
		"a short block":           append([][]byte{blocks[0], blocks[1][:len(blocks[1])-1]}, blocks[2:]...),
		"bytes after a block":     append([][]byte{blocks[0], append(bytes.Clone(blocks[1]), 0)}, blocks[2:]...),
		"another version":         append([][]byte{append([]byte{'A', 2}, blocks[0][2:]...)}, blocks[1:]...),
	}
	for name, bs := range cases {
		s := newStore(t, "Kept")
		err := s.LoadBlocks(feed(bs))
		if err == nil {
			if strings.HasPrefix(name, "byte ") {
				continue
			}
			t.Errorf("%s: loaded", name)
			continue
		}
		if _, gerr := s.GetTable("Kept"); gerr != nil {
			t.Errorf("%s: refused (%v) but the account changed", name, err)
		}
	}
}

// TestBlocksChangedByte: each byte of a small account's blocks changed in
// turn is refused or loads a valid account (a changed letter of a string);
// never a panic.
func TestBlocksChangedByte(t *testing.T) {
	blocks := blocksOf(t, richStore(t))
	refused := 0
	for bi := range blocks {
		for i := range blocks[bi] {
			bs := append([][]byte{}, blocks...)
			bs[bi] = bytes.Clone(bs[bi])
			bs[bi][i] ^= 0x80
			s := newStore(t, "Kept")
			if err := s.LoadBlocks(feed(bs)); err != nil {
				refused++
				if _, gerr := s.GetTable("Kept"); gerr != nil {
					t.Fatalf("block %d byte %d: refused (%v) but the account changed", bi, i, err)
				}
			}
		}
	}
	if refused == 0 {
		t.Fatal("no change refused")
	}
}

// TestBlocksCheckValues: what a block can hold but the service cannot —
// an Int32 out of range, an invalid property name, keys repeated, an
// unknown type — is refused.
func TestBlocksCheckValues(t *testing.T) {
	s := newStore(t, "Tab")
	if _, err := s.Apply("Tab", Op{Kind: Insert, Entity: ent("a", "1", i32("N", 1))}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("Tab", Op{Kind: Insert, Entity: ent("a", "2", i32("N", 1))}); err != nil {
		t.Fatal(err)
	}
	blocks := blocksOf(t, s)
	eb := blocks[2]
	edit := func(f func(b []byte) []byte) [][]byte {
		bs := append([][]byte{}, blocks...)
		bs[2] = f(bytes.Clone(eb))
		return bs
	}
	// The block: 'E', 1 name, "N", 2 entities, then "a" "1", its
	// Timestamp, 1 property: name 0, Int32 (code 3), 1 (varint 2); "a" "2" ….
	i := bytes.Index(eb, []byte{1, 0, 3, 2}) + 2
	j := bytes.LastIndex(eb, []byte("2"))
	if i < 0 || j < 0 {
		t.Fatalf("unexpected block %v", eb)
	}
	for name, bs := range map[string][][]byte{
		"int32 out of range": edit(func(b []byte) []byte {
			return append(append(b[:i+1:i+1], binary.AppendVarint(nil, 1<<40)...), b[i+2:]...)
		}),
		"invalid name":  edit(func(b []byte) []byte { return bytes.Replace(b, []byte{1, 'N'}, []byte{1, '1'}, 1) }),
		"keys repeated": edit(func(b []byte) []byte { b[j] = '1'; return b }),
		"bad type code": edit(func(b []byte) []byte { b[i] = 99; return b }),
	} {
		if err := newStore(t).LoadBlocks(feed(bs)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if err := newStore(t).LoadBlocks(feed(blocks)); err != nil {
		t.Fatalf("the unchanged blocks: %v", err)
	}
}

// A block whose name list gives one name twice is refused: its entities
// could otherwise hold that name twice, one property under each index.
func TestBlocksNameListedTwice(t *testing.T) {
	s := newStore(t, "Tab")
	if _, err := s.Apply("Tab", Op{Kind: Insert, Entity: ent("a", "1", i32("Aa", 1), i32("Ab", 2))}); err != nil {
		t.Fatal(err)
	}
	blocks := blocksOf(t, s)
	if err := newStore(t).LoadBlocks(feed(blocks)); err != nil {
		t.Fatalf("the unchanged blocks: %v", err)
	}
	bs := append([][]byte{}, blocks...)
	bs[2] = bytes.Replace(bytes.Clone(bs[2]), []byte{2, 'A', 'b'}, []byte{2, 'A', 'a'}, 1)
	if bytes.Equal(bs[2], blocks[2]) {
		t.Fatalf("no name Ab in the block %v", blocks[2])
	}
	err := newStore(t).LoadBlocks(feed(bs))
	if err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Fatalf("a name listed twice: %v", err)
	}
}

// FuzzLoadBlocks: any blocks (the input split at its 0xFF bytes) are
// loaded or refused, never a panic; what loads writes back to blocks that
// load to the same account.
func FuzzLoadBlocks(f *testing.F) {
	for _, s := range []*Store{richStore(f), newStore(f, "Tab")} {
		f.Add(bytes.Join(blocksOf(f, s), []byte{0xff}))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := New(Options{Clock: stalled()})
		if err := s.LoadBlocks(feed(bytes.Split(in, []byte{0xff}))); err != nil {
			return
		}
		want := s.Snapshot()
		// The blocks' reader applies every rule Build applies: what it
		// takes, the JSON reader (through Build) takes too.
		if err := New(Options{Clock: stalled()}).Load(want); err != nil {
			t.Fatalf("loaded from blocks, refused as JSON: %v", err)
		}
		r := New(Options{Clock: stalled()})
		if err := r.LoadBlocks(feed(blocksOf(t, s))); err != nil {
			t.Fatalf("a loaded account's own blocks refused: %v", err)
		}
		if got := r.Snapshot(); !bytes.Equal(got, want) {
			t.Fatalf("reloaded differs:\n%s\n%s", want, got)
		}
	})
}

// BenchmarkLoadBlocks: loading a snapshot of 10,000 entities of ten
// properties (ns/op is per snapshot; per entity divide by 10,000).
func BenchmarkLoadBlocks(b *testing.B) {
	s := newStore(b, "Scale")
	for p := range 100 {
		var ops []Op
		for r := range 100 {
			ops = append(ops, Op{Kind: Insert, Entity: ent("part"+rk(p), rk(r), str("Name", "Cust "+rk(r)), str("Email", "c"+rk(r)+"@ex.io"),
				str("City", "Leeds"), i32("Age", r), prop("Balance", edm.DoubleValue(1.25)), prop("Active", edm.BoolValue(true)),
				prop("Joined", edm.DateTimeValue(edm.MinTicks+edm.Ticks(r))), prop("Visits", edm.Int64Value(int64(r))),
				prop("Id", edm.GuidValue([16]byte{1, 2})), str("Notes", "vip"))})
		}
		if _, err := s.Transact("Scale", ops); err != nil {
			b.Fatal(err)
		}
	}
	blocks := blocksOf(b, s)
	b.ResetTimer()
	for range b.N {
		if err := New(Options{Clock: stalled()}).LoadBlocks(feed(blocks)); err != nil {
			b.Fatal(err)
		}
	}
}
