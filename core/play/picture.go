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
// with the key range and the page marked on it.
type QueryMap struct {
	// Total is how many entities the table holds.
	Total int `json:"total"`
	// RangeFrom and RangeTo are the part of the key order the filter's key
	// range covers (RangeTo excluded): the most a query with it can examine.
	RangeFrom int `json:"rangeFrom"`
	// RangeTo is the end of the key range, excluded.
	RangeTo int `json:"rangeTo"`
	// PageFrom and PageTo are the entities this page examined (PageTo
	// excluded): from the range's start, or the continuation's key, to where
	// the page ended.
	PageFrom int `json:"pageFrom"`
	// PageTo is where the page ended, excluded: the next page's first key.
	PageTo int `json:"pageTo"`
	// Examined and Returned are the page's figures (PageTo - PageFrom
	// examined).
	Examined int `json:"examined"`
	// Returned is how many entities the page holds.
	Returned int `json:"returned"`
	// Next is the continuation the page ended with: the tokens and the keys
	// they name; nil on the last page.
	Next *Continuation `json:"next,omitempty"`
	// Error is the service's error when the query cannot run.
	Error *Card `json:"error,omitempty"`
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

// QueryPicture runs one page of a query (an operation as Run takes it,
// continuation included) against the store and places it in the table's key
// order: the filter's key range, the entities the page examined, and where
// the next page starts. Finding the positions reads at most the table's
// entities three times over, as three full scans would; nothing is returned
// but counts and the keys the tokens name.
func (a *API) QueryPicture(opJSON []byte) []byte {
	var p Operation
	if err := readJSON(opJSON, &p); err != nil || a.Store == nil {
		return errorJSON("not an operation")
	}
	var n filter.Node
	if p.Filter != nil && *p.Filter != "" {
		var err *tableerr.Error
		if n, err = filter.Parse(*p.Filter); err != nil {
			c := cardOf(err)
			return mustJSON(QueryMap{Error: &c})
		}
	}
	total, terr := a.Store.Count(p.Table)
	if terr != nil {
		c := cardOf(terr)
		return mustJSON(QueryMap{Error: &c})
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
	if p.NextPartitionKey != "" || p.NextRowKey != "" {
		pk, ok1 := store.DecodeToken(p.NextPartitionKey)
		rk, ok2 := store.DecodeToken(p.NextRowKey)
		if ok1 && ok2 {
			m.PageFrom = max(m.PageFrom, a.rank(p.Table, pk, rk))
		}
	}
	page, qerr := a.Store.Query(p.Table, store.Query{Filter: n, Top: p.Top, NextPartitionKey: p.NextPartitionKey, NextRowKey: p.NextRowKey})
	if qerr != nil {
		c := cardOf(qerr)
		return mustJSON(QueryMap{Error: &c})
	}
	m.Examined, m.Returned = page.Scanned, len(page.Entities)
	m.PageTo = m.PageFrom + page.Scanned
	if page.More() {
		c := decodeContinuationOf(Operation{NextPartitionKey: page.NextPartitionKey, NextRowKey: page.NextRowKey})
		m.Next = &c
	}
	return mustJSON(m)
}
