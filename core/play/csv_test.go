package play

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

func csvAPI(t *testing.T) *API {
	t.Helper()
	a := newAPI("http://127.0.0.1:10002/devstoreaccount1")
	a.Store = store.New(store.Options{Clock: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }})
	if _, err := a.Store.CreateTable("Tab"); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestCSVExportImportRoundTrip(t *testing.T) {
	a := csvAPI(t)
	big, _ := edm.ParseString(edm.Int64, "9007199254740993")
	when, _ := edm.ParseString(edm.DateTime, "2026-11-22T12:34:56.1234567Z")
	e := &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{
		{Name: "Big", Value: big}, {Name: "When", Value: when}, {Name: "Note", Value: edm.StringValue("a,\"b\"\r\nc")}}}
	if _, err := a.Store.Apply("Tab", store.Op{Kind: store.Insert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	var ex CSVExport
	if err := json.Unmarshal(a.ExportCSV("Tab", ""), &ex); err != nil || ex.Count != 1 {
		t.Fatalf("export: %v %+v", err, ex)
	}
	if _, err := a.Store.Apply("Tab", store.Op{Kind: store.Delete, Entity: e, IfMatch: store.Match{Kind: store.MatchAny}}); err != nil {
		t.Fatal(err)
	}
	var im CSVImport
	if err := json.Unmarshal(a.ImportCSV("Tab", ex.CSV), &im); err != nil || !im.OK || im.Imported != 1 {
		t.Fatalf("import: %v %+v", err, im)
	}
	got, err := a.Store.Get("Tab", "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]edm.Value{}
	for _, p := range got.Properties {
		stored[p.Name] = p.Value
	}
	for _, p := range e.Properties {
		if v, ok := stored[p.Name]; !ok || !v.Equal(p.Value) {
			t.Errorf("%s: got %v, want %v", p.Name, v, p.Value)
		}
	}
	if len(got.Properties) != len(e.Properties) {
		t.Errorf("%d properties back, want %d", len(got.Properties), len(e.Properties))
	}
	// A filter narrows the export.
	var none CSVExport
	_ = json.Unmarshal(a.ExportCSV("Tab", "RowKey eq 'zzz'"), &none)
	if none.Count != 0 || strings.Count(none.CSV, "\r\n") != 1 {
		t.Errorf("filtered export: %+v", none)
	}
}

func TestCSVImportIsAllOrNothing(t *testing.T) {
	a := csvAPI(t)
	before := string(a.Store.Snapshot())
	var im CSVImport
	_ = json.Unmarshal(a.ImportCSV("Tab", "PartitionKey,RowKey,N,N@type\np,1,1,Int32\np,2,two,Int32\n"), &im)
	if im.OK || len(im.Problems) != 1 || im.Problems[0].Line != 3 || im.Problems[0].Column != "N" {
		t.Fatalf("import: %+v", im)
	}
	if after := string(a.Store.Snapshot()); after != before {
		t.Fatal("a rejected import changed the account")
	}
	var missing CSVImport
	_ = json.Unmarshal(a.ImportCSV("Missing", "PartitionKey,RowKey\np,1\n"), &missing)
	if missing.OK || missing.Error == nil || missing.Error.Code != "ResourceNotFound" {
		t.Fatalf("import into a missing table: %+v %+v", missing, missing.Error)
	}
}

// TestCSVExportSaysWhenItStops: a table larger than the export's page budget
// gives a file of the pages read and says the table holds more.
func TestCSVExportSaysWhenItStops(t *testing.T) {
	a := csvAPI(t)
	for i := range 2001 {
		e := &entity.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("%05d", i)}
		if _, err := a.Store.Apply("Tab", store.Op{Kind: store.Insert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		pages     int
		count     int
		truncated bool
	}{{2, 2000, true}, {3, 2001, false}} {
		var ex CSVExport
		if err := json.Unmarshal(a.exportCSV("Tab", "", c.pages), &ex); err != nil {
			t.Fatal(err)
		}
		if ex.Count != c.count || ex.Truncated != c.truncated || strings.Count(ex.CSV, "\r\n") != c.count+1 {
			t.Errorf("%d pages: count %d truncated %v, want %d %v", c.pages, ex.Count, ex.Truncated, c.count, c.truncated)
		}
	}
}
