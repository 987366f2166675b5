package store

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// everyType is an entity holding each Edm type once.
func everyType(pk, rk string) *entity.Entity {
	g, _ := edm.ParseString(edm.Guid, "c9da6455-213d-42c9-9a79-3e9149a57833")
	return &entity.Entity{PartitionKey: pk, RowKey: rk, Properties: []entity.Property{
		{Name: "S", Value: edm.StringValue("zoë")},
		{Name: "B", Value: edm.BinaryValue([]byte{0, 1, 255})},
		{Name: "Yes", Value: edm.BoolValue(true)},
		{Name: "I32", Value: edm.Int32Value(-2147483648)},
		{Name: "I64", Value: edm.Int64Value(9223372036854775807)},
		{Name: "D", Value: edm.DoubleValue(-0.5)},
		{Name: "T", Value: edm.DateTimeValue(edm.MaxTicks)},
		{Name: "G", Value: g},
	}}
}

// writeRecords makes a store, a table and a transaction of two entities of
// every type and a delete, and returns the store and its records.
func writeRecords(t *testing.T) (*Store, [][]byte) {
	t.Helper()
	j := &storetest.Journal{}
	s := New(Options{Clock: stalled(), Journal: j})
	if _, err := s.CreateTable("tbl"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: everyType("p", "gone")}); err != nil {
		t.Fatal(err)
	}
	ops := []Op{{Kind: Insert, Entity: everyType("p", "a")}, {Kind: InsertOrReplace, Entity: everyType("p", "b")},
		{Kind: Delete, Entity: &entity.Entity{PartitionKey: "p", RowKey: "gone"}, IfMatch: Match{Kind: MatchAny}}}
	if _, err := s.Transact("tbl", ops); err != nil {
		t.Fatal(err.Err)
	}
	return s, j.Records()
}

// TestChangeRecordsCarryTheirVersion: every record says v 2, and a write's
// entities are an entities block (the store's value codec), not text; the
// records replay to the same account.
func TestChangeRecordsCarryTheirVersion(t *testing.T) {
	s, recs := writeRecords(t)
	for i, rec := range recs {
		var c map[string]json.RawMessage
		if err := json.Unmarshal(rec, &c); err != nil {
			t.Fatalf("record %d is not JSON: %v", i, err)
		}
		if string(c["v"]) != "2" {
			t.Errorf("record %d: v = %s, want 2: %s", i, c["v"], rec)
		}
		if _, ok := c["put"]; ok {
			t.Errorf("record %d holds text entities: %s", i, rec)
		}
	}
	if !strings.Contains(string(recs[2]), `"block":"`) {
		t.Errorf("the transaction's record has no block: %s", recs[2])
	}
	if got, want := replay(t, nil, recs).Snapshot(), s.Snapshot(); string(got) != string(want) {
		t.Errorf("replayed account differs:\n%s\nwant\n%s", got, want)
	}
}

// TestVersionOneWriteRecordsStillRedo: a write record as builds before the
// version wrote it (no v, entities as text) gives the account its version
// 2 record gives.
func TestVersionOneWriteRecordsStillRedo(t *testing.T) {
	s, recs := writeRecords(t)
	v1 := make([][]byte, len(recs))
	for i, rec := range recs {
		var c change
		if err := json.Unmarshal(rec, &c); err != nil {
			t.Fatal(err)
		}
		c.Version = 0
		if c.Block != nil {
			batch := decodeEntities(c.Block)
			if batch.err != nil {
				t.Fatal(batch.err)
			}
			for _, rw := range batch.rows {
				e := rw.entity(batch.names, nil)
				c.Put = append(c.Put, entityRecord(e))
			}
			c.Block = nil
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"v"`) {
			t.Fatalf("a version 1 record with v: %s", b)
		}
		v1[i] = b
	}
	if got, want := replay(t, nil, v1).Snapshot(), s.Snapshot(); string(got) != string(want) {
		t.Errorf("version 1 records replay to another account:\n%s\nwant\n%s", got, want)
	}
}

// TestRedoRejectsBadVersionTwoRecords: an unknown version, the forms of two
// versions mixed, and a block cut, of another kind or with a bad value are
// refused, and the account is left as it was.
func TestRedoRejectsBadVersionTwoRecords(t *testing.T) {
	_, recs := writeRecords(t)
	var c change
	if err := json.Unmarshal(recs[2], &c); err != nil {
		t.Fatal(err)
	}
	block := c.Block
	with := func(v int, b []byte, put string) string {
		out := `{"v":` + string(rune('0'+v)) + `,"op":"write","table":"tbl","ts":"2026-01-01T00:00:00Z"`
		if b != nil {
			out += `,"block":"` + base64.StdEncoding.EncodeToString(b) + `"`
		}
		return out + put + `}`
	}
	badType := append([]byte(nil), block...)
	// The first value's type code follows the block's names and the first
	// entity's keys, Timestamp, count and name index: find it by its place.
	at := strings.Index(string(badType), "zoë") - 2 // the length byte, then the code
	badType[at] = 99
	s := newStore(t, "tbl")
	before := s.Snapshot()
	for name, rec := range map[string]string{
		"version 3":            with(3, block, ""),
		"v2 with text":         with(2, nil, `,"put":[]`),
		"v1 with a block":      `{"op":"write","table":"tbl","ts":"2026-01-01T00:00:00Z","block":"` + base64.StdEncoding.EncodeToString(block) + `"}`,
		"an empty block":       with(2, []byte{}, ""),
		"a table block":        with(2, append([]byte{'T'}, block[1:]...), ""),
		"a block cut":          with(2, block[:len(block)-3], ""),
		"a block with more":    with(2, append(append([]byte(nil), block...), 0), ""),
		"an unknown type code": with(2, badType, ""),
	} {
		if err := s.Redo([]byte(rec)); err == nil {
			t.Errorf("%s: accepted: %s", name, rec)
		}
	}
	if got := s.Snapshot(); string(got) != string(before) {
		t.Errorf("a rejected record changed the account:\n%s", got)
	}
}
