package store

import (
	"fmt"
	"github.com/tableplay/tableplay/core/entity"
	"runtime"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

func cosmosStore(t testing.TB, tables ...string) *Store {
	t.Helper()
	s := New(Options{Clock: stalled(), Profile: profile.Cosmos()})
	for _, n := range tables {
		if _, err := s.CreateTable(n); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestCosmosTableNamesKeepCase(t *testing.T) {
	s := cosmosStore(t, "People")
	if _, err := s.CreateTable("people"); err != nil {
		t.Fatalf("a name differing in case is another table on Cosmos: %v", err)
	}
	if _, err := s.CreateTable("People"); code(err) != tableerr.TableAlreadyExists {
		t.Fatalf("same name again: %v", err)
	}
	if _, err := s.Apply("People", Op{Kind: Insert, Entity: ent("p", "1")}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count("people"); n != 0 {
		t.Fatalf("people holds %d entities, want 0: the insert went to People", n)
	}
	if _, err := s.GetTable("PEOPLE"); code(err) != tableerr.ResourceNotFound {
		t.Fatalf("GetTable(PEOPLE) = %v, want 404", err)
	}
	az := newStore(t, "People")
	if _, err := az.CreateTable("people"); code(err) != tableerr.TableAlreadyExists {
		t.Fatalf("azure folds case: %v", err)
	}
}

func TestCosmosSnapshotKeepsCaseDistinctTables(t *testing.T) {
	s := cosmosStore(t, "People", "people")
	doc := s.Snapshot()
	back := cosmosStore(t)
	if err := back.Load(doc); err != nil {
		t.Fatal(err)
	}
	page, _ := back.ListTables(TableQuery{})
	if strings.Join(page.Names, ",") != "People,people" {
		t.Fatalf("tables after load: %v", page.Names)
	}
	// Azure folds them into one name: the load must refuse, not drop one.
	if err := newStore(t).Load(doc); err == nil || !strings.Contains(err.Error(), "already has a table") {
		t.Fatalf("azure load of case-distinct tables: %v", err)
	}
}

func TestCosmosWriteOrderAndTokens(t *testing.T) {
	s := cosmosStore(t, "tbl")
	for _, k := range []string{"c", "a", "b"} {
		if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", k)}); err != nil {
			t.Fatal(err)
		}
	}
	// Rewriting a moves it last.
	if _, err := s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: ent("p", "a", i32("v", 1))}); err != nil {
		t.Fatal(err)
	}
	var got []string
	q := Query{Top: 1}
	for i := 0; i < 10; i++ {
		page, err := s.Query("tbl", q)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entities {
			got = append(got, e.RowKey)
		}
		if !page.More() {
			break
		}
		if page.NextRowKey != CosmosRowToken || !strings.HasPrefix(page.NextPartitionKey, `{"token":"`) {
			t.Fatalf("tokens %q %q", page.NextPartitionKey, page.NextRowKey)
		}
		q.NextPartitionKey, q.NextRowKey = page.NextPartitionKey, page.NextRowKey
	}
	if strings.Join(got, "") != "cba" {
		t.Fatalf("order %v, want c b a (write order)", got)
	}
	if _, err := s.Query("tbl", Query{NextPartitionKey: "1!4!YQ--", NextRowKey: "1!4!YQ--"}); code(err) != tableerr.InvalidInput {
		t.Fatalf("a Storage token on Cosmos: %v", err)
	}
	az := newStore(t, "tbl")
	for _, k := range []string{"c", "a", "b"} {
		az.Apply("tbl", Op{Kind: Insert, Entity: ent("p", k)})
	}
	page, _ := az.Query("tbl", Query{})
	if page.Entities[0].RowKey != "a" {
		t.Fatal("azure must keep key order")
	}
}

func TestCosmosTokenRoundTrip(t *testing.T) {
	tok := EncodeCosmosToken(12345, "p\u00e9", "r'k")
	p, ok := decodeCosmosToken(tok)
	if !ok || p.at != 12345 || p.pk != "p\u00e9" || p.rk != "r'k" {
		t.Fatalf("decode(%q) = %+v, %v", tok, p, ok)
	}
	for _, bad := range []string{"", "{}", `{"token":"!!","range":{"min":"","max":"FF"}}`, tok[:len(tok)-1], strings.Repeat("x", maxCosmosToken+1)} {
		if _, ok := decodeCosmosToken(bad); ok {
			t.Errorf("decode(%q) accepted", bad)
		}
	}
}

func TestCosmosRowKeyBytesAndReservedNames(t *testing.T) {
	s := cosmosStore(t, "tbl")
	long := strings.Repeat("é", 128) // 256 bytes, 128 UTF-16 units: fine on Azure
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", long)}); code(err) != tableerr.PropertyValueTooLarge {
		t.Fatalf("256-byte RowKey on Cosmos: %v", err)
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", long[:254])}); err != nil {
		t.Fatalf("254-byte RowKey: %v", err)
	}
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "r", str("RID", "x"))}); code(err) != tableerr.PropertyNameInvalid {
		t.Fatalf("reserved name: %v", err)
	}
	// A property named etag is stored, and a second one spelled Etag is
	// dropped (F-COSMOS-ETAG-PROPERTY).
	if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", "e", str("etag", "x"), str("Other", "o"), str("Etag", "y"))}); err != nil {
		t.Fatalf("etag: %v", err)
	}
	got, err := s.Get("tbl", "p", "e")
	if err != nil || len(got.Properties) != 2 || got.Properties[0].Name != "etag" || got.Properties[1].Name != "Other" {
		t.Fatalf("etag kept as %+v, %v", got, err)
	}
	// Empty keys are refused (F-COSMOS-EMPTY-KEYS); Azure stores them.
	for _, e := range []*entity.Entity{ent("", "r"), ent("p", "")} {
		if _, err := s.Apply("tbl", Op{Kind: InsertOrReplace, Entity: e}); code(err) != tableerr.PropertiesNeedValue {
			t.Fatalf("empty key %+v: %v", e, err)
		}
	}
	az := newStore(t, "tbl")
	if _, err := az.Apply("tbl", Op{Kind: Insert, Entity: ent("p", long, str("etag", "x"), str("Etag", "y"))}); err != nil {
		t.Fatalf("azure: %v", err)
	}
	if got, err := az.Get("tbl", "p", long); err != nil || len(got.Properties) != 2 {
		t.Fatalf("azure keeps both etag and Etag: %+v %v", got, err)
	}
	if _, err := az.Apply("tbl", Op{Kind: Insert, Entity: ent("", "")}); err != nil {
		t.Fatalf("azure, empty keys: %v", err)
	}
}

// FuzzCosmosToken holds decodeCosmosToken to its encoder: whatever it reads
// was made by EncodeCosmosToken from what it returns, and nothing panics.
func FuzzCosmosToken(f *testing.F) {
	f.Add(EncodeCosmosToken(638000000000000000, "pk", "rk"))
	f.Add(`{"token":"+RID:~hr8WAPfj97QBAAAAAAAAAA==#RT:1","range":{"min":"","max":"FF"}}`)
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		p, ok := decodeCosmosToken(tok)
		if !ok {
			return
		}
		if again := EncodeCosmosToken(p.at, p.pk, p.rk); again != tok {
			// base64 has one canonical text per byte string, and the hex
			// of the time one per value, so a token read back is the token.
			if q, ok := decodeCosmosToken(again); !ok || q != p {
				t.Fatalf("%q read as %+v, written back as %q", tok, p, again)
			}
		}
	})
}

func TestCosmosListTablesPagesKeepCase(t *testing.T) {
	s := cosmosStore(t, "Aaa", "Bbb", "aaa")
	var got []string
	q := TableQuery{Top: 1}
	for i := 0; i < 5; i++ {
		page, err := s.ListTables(q)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page.Names...)
		if page.NextTableName == "" {
			break
		}
		q.NextTableName = page.NextTableName
	}
	if strings.Join(got, ",") != "Aaa,Bbb,aaa" {
		t.Fatalf("listed page by page: %v, want Aaa,Bbb,aaa", got)
	}
}

// TestCosmosWriteOrderPageHoldsOnlyItsPage: a write-order page scans its
// key range but keeps no more than about two pages of matches while it
// sorts them, however large the table (a bound on what one query holds).
func TestCosmosWriteOrderPageHoldsOnlyItsPage(t *testing.T) {
	s := cosmosStore(t, "tbl")
	const n = 20_000
	for i := range n {
		if _, err := s.Apply("tbl", Op{Kind: Insert, Entity: ent("p", fmt.Sprintf("r%06d", n-i))}); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	page, err := s.Query("tbl", Query{Top: 2})
	runtime.ReadMemStats(&after)
	if err != nil || len(page.Entities) != 2 || page.Entities[0].RowKey != fmt.Sprintf("r%06d", n) || page.Entities[1].RowKey != fmt.Sprintf("r%06d", n-1) {
		t.Fatalf("page %v %v", page.Entities, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<10 {
		t.Fatalf("a 2-entity page of %d allocated %d bytes", n, got)
	}
}
