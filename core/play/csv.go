package play

import (
	"strconv"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tablecsv"
)

// CSVExport is ExportCSV's answer: the file, or why there is none.
type CSVExport struct {
	// CSV is the file's text; empty on error.
	CSV string `json:"csv,omitempty"`
	// Count is the number of entities written to it.
	Count int `json:"count"`
	// Truncated says the table holds more than an import accepts: the file
	// has the first tablecsv.MaxRows entities, in key order.
	Truncated bool `json:"truncated,omitempty"`
	// Error is the service's error, for a missing table or a bad $filter.
	Error *Card `json:"error,omitempty"`
}

// ExportCSV writes a table's entities (those a $filter keeps, when filter is
// not empty) in Storage Explorer's CSV layout.
func (a *API) ExportCSV(table, filterText string) []byte {
	return a.exportCSV(table, filterText, maxExportPages)
}

// exportCSV reads at most maxPages pages of the service's size.
func (a *API) exportCSV(table, filterText string, maxPages int) []byte {
	if a.Store == nil {
		return errorJSON("no account")
	}
	q := store.Query{}
	if filterText != "" {
		n, err := filter.Parse(filterText)
		if err != nil {
			c := cardOf(a.Locale, err)
			return mustJSON(CSVExport{Error: &c})
		}
		q.Filter = n
	}
	var all []*entity.Entity
	more := false
	for range maxPages {
		page, err := a.Store.Query(table, q)
		if err != nil {
			c := cardOf(a.Locale, err)
			return mustJSON(CSVExport{Error: &c})
		}
		all = append(all, page.Entities...)
		if more = page.More(); !more {
			break
		}
		q.NextPartitionKey, q.NextRowKey = page.NextPartitionKey, page.NextRowKey
	}
	return mustJSON(CSVExport{CSV: tablecsv.Write(all), Count: len(all), Truncated: more})
}

// maxExportPages bounds the pages an export reads: as many rows as an
// import accepts, at the service's 1,000 entities a page.
const maxExportPages = tablecsv.MaxRows / 1000

// CSVImport is ImportCSV's answer: how many entities were written, or every
// problem found (and nothing written).
type CSVImport struct {
	// OK says every entity was written.
	OK bool `json:"ok"`
	// Imported is the number of entities written.
	Imported int `json:"imported"`
	// Problems are every fault found in the file, or the write that failed.
	Problems []tablecsv.Problem `json:"problems,omitempty"`
	// Error is the service's error, for a missing table or a failed write.
	Error *Card `json:"error,omitempty"`
}

// ImportCSV reads a Storage Explorer CSV file into a table, all or nothing:
// every row is checked first, then each entity is inserted or replaced; if a
// write still fails the account is restored to what it was.
func (a *API) ImportCSV(table, text string) []byte {
	if a.Store == nil {
		return errorJSON("no account")
	}
	if _, err := a.Store.GetTable(table); err != nil {
		c := cardOf(a.Locale, err)
		return mustJSON(CSVImport{Error: &c})
	}
	entities, problems := tablecsv.Read(text)
	if problems != nil {
		return mustJSON(CSVImport{Problems: problems})
	}
	before := a.Store.Snapshot()
	for i, e := range entities {
		if _, err := a.Store.Apply(table, store.Op{Kind: store.InsertOrReplace, Entity: e}); err != nil {
			if rerr := a.Store.Restore(before); rerr != nil {
				return errorJSON("import failed and the account could not be restored: " + rerr.Error())
			}
			c := cardOf(a.Locale, err)
			return mustJSON(CSVImport{Error: &c, Problems: []tablecsv.Problem{{Column: entity.RowKey, Code: string(err.Code),
				Message: "entity " + strconv.Itoa(i+1) + " (" + e.PartitionKey + ", " + e.RowKey + "): " + err.Message}}})
		}
	}
	return mustJSON(CSVImport{OK: true, Imported: len(entities)})
}
