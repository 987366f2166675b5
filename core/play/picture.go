package play

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// QueryMap is QueryPicture's answer: where one page of a query lies in its
// table's key order. Positions count entities in (PartitionKey, RowKey)
// order from 0, so the page can draw the table as a strip of Total entities
// with the key range marked, and the page from PageFrom on for as many
// entities as the run examined (Run's stats), up to the key its
// continuation names.
type QueryMap struct {
	// Total is how many entities the table holds.
	Total int `json:"total"`
	// RangeFrom and RangeTo are the part of the key order the filter's key
	// range covers (RangeTo excluded): the most a query with it can examine.
	RangeFrom int `json:"rangeFrom"`
	// RangeTo is the end of the key range, excluded.
	RangeTo int `json:"rangeTo"`
	// PageFrom is where the page's scan starts: the range's start, or the
	// continuation's key when it lies further on.
	PageFrom int `json:"pageFrom"`
}

// hideAll makes a store query match nothing while still counting every
// entity of its key range as examined: Scanned is then the number of
// entities in the range.
func hideAll(*entity.Entity) bool { return false }

// countRange is how many entities of a table lie in the key range of the
// filter text (which the caller builds, so it parses).
func (a *API) countRange(table, text string) int {
	n, err := filter.Parse(text)
	if err != nil {
		return 0
	}
	p, _ := a.Store.Query(table, store.Query{Filter: n, Within: hideAll})
	return p.Scanned
}

// rank is how many entities of a table come before the key (pk, rk).
func (a *API) rank(table, pk, rk string) int {
	return a.countRange(table, "PartitionKey lt "+quoteKey(pk)) +
		a.countRange(table, "PartitionKey eq "+quoteKey(pk)+" and RowKey lt "+quoteKey(rk))
}

// QueryPicture places a query (an operation as Run takes it, continuation
// included) in its table's key order: the filter's key range and where the
// page's scan starts. Finding the positions reads at most the table's
// entities three times over, as three full scans would; only counts are
// returned.
func (a *API) QueryPicture(opJSON []byte) []byte {
	var p Operation
	if err := readJSON(opJSON, &p); err != nil || a.Store == nil {
		return errorJSON("not an operation")
	}
	var n filter.Node
	if p.Filter != nil && *p.Filter != "" {
		var err *tableerr.Error
		if n, err = filter.Parse(*p.Filter); err != nil {
			return errorJSON(err.Message)
		}
	}
	total, terr := a.Store.Count(p.Table)
	if terr != nil {
		return errorJSON(terr.Message)
	}
	r := filter.KeyRange(n)
	m := QueryMap{Total: total}
	// The scan starts where the store's does: the lowest key the range
	// allows (a RowKey only within a fixed partition).
	startPK, startRK := "", ""
	if r.PKLow.Set {
		startPK = r.PKLow.Key
		if r.PartitionFixed() && r.RKLow.Set {
			startRK = r.RKLow.Key
		}
	}
	m.RangeFrom = a.rank(p.Table, startPK, startRK)
	m.RangeTo = m.RangeFrom
	if !r.Empty {
		all, _ := a.Store.Query(p.Table, store.Query{Filter: n, Within: hideAll})
		m.RangeTo += all.Scanned
	}
	m.PageFrom = m.RangeFrom
	pk, ok1 := store.DecodeToken(p.NextPartitionKey)
	rk, ok2 := store.DecodeToken(p.NextRowKey)
	if ok1 && ok2 && p.NextPartitionKey != "" {
		m.PageFrom = max(m.PageFrom, a.rank(p.Table, pk, rk))
	}
	return mustJSON(m)
}
