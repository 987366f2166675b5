package store

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Query is a Query Entities request.
type Query struct {
	// Filter is the parsed $filter, nil for every entity. The store narrows
	// the scan to filter.KeyRange(Filter) and evaluates Filter on the rest.
	Filter filter.Node
	// Top is $top (1–1000); 0 means a full page of 1000, NoEntities an empty
	// page ($top=0).
	Top int
	// NextPartitionKey and NextRowKey are continuation tokens from the
	// previous page, or empty.
	NextPartitionKey, NextRowKey string
	// Within, if set, hides the entities it rejects, as if they were not in
	// the table (a shared access signature's key range). The entity it is
	// given holds the keys and Timestamp only, and only for the call.
	Within func(*entity.Entity) bool
}

// Page is one page of results. When another matching entity exists after it
// (F-CONTINUATION-LOOKAHEAD), NextPartitionKey and NextRowKey are the tokens naming that entity;
// the next page resumes there inclusively (F-CONTINUATION-TOKEN).
type Page struct {
	// Entities are the matching entities, in key order.
	Entities []*entity.Entity
	// NextPartitionKey and NextRowKey are the continuation tokens; empty
	// when nothing more matches.
	NextPartitionKey, NextRowKey string
	Scanned                      int // entities examined, matching or not
}

// More reports whether a continuation was returned.
func (p *Page) More() bool { return p.NextPartitionKey != "" }

// NoEntities as a Top asks for a page without entities that still carries
// the continuation when something matches: $top=0 (F-TOP-ZERO).
const NoEntities = -1

// pageSize is how many entities (or tables) a page with this Top holds.
func pageSize(top int) int {
	switch {
	case top == NoEntities:
		return 0
	case top <= 0 || top > filter.MaxTop:
		return filter.MaxTop
	}
	return top
}

// MaxPageBytes bounds a page by the entities' sizes (the published size
// formula) as well as by count: a page that would pass it ends early with a
// continuation, as the service ends large pages. The text written can be
// several times those sizes, so the REST layer cuts the page again by the
// bytes it writes (F-PAGE-BYTES). A page always holds at least one entity.
const MaxPageBytes = 4 << 20

// Query answers one page of a query. Entities are in (PartitionKey, RowKey)
// order; a page holds at most Top (or 1000) of them, and at most
// MaxPageBytes of them.
func (s *Store) Query(tableName string, q Query) (Page, *tableerr.Error) {
	t, err := s.tableFor(tableName)
	if err != nil {
		return Page{}, err
	}
	top := pageSize(q.Top)
	if s.profile.Order == profile.WriteOrder {
		return t.queryWriteOrder(q, top)
	}
	r := filter.KeyRange(q.Filter)
	var page Page
	if r.Empty {
		return page, nil
	}
	startPK, startRK := "", ""
	if r.PKLow.Set {
		startPK = r.PKLow.Key
		if r.PartitionFixed() && r.RKLow.Set {
			startRK = r.RKLow.Key
		}
	}
	start := probe(startPK, startRK)
	if q.NextPartitionKey != "" || q.NextRowKey != "" {
		pk, ok1 := DecodeToken(q.NextPartitionKey)
		rk, ok2 := DecodeToken(q.NextRowKey)
		if !ok1 || !ok2 {
			return Page{}, tableerr.New(tableerr.InvalidInput)
		}
		if cont := probe(pk, rk); itemLess(start, cont) {
			start = cont
		}
	}
	fixed := r.PartitionFixed()
	match := filter.Compile(q.Filter)
	size := 0
	rows := make([]*row, 0, min(top, 64))
	// The key bounds are tested only where they are set, so that a scan of
	// the whole table reads a row's keys only once it matches.
	pkBounded := r.PKLow.Set || r.PKHigh.Set
	v := t.view()
	rec := record{dict: t.names.load()} // after the view: see names
	var keys entity.Entity
	v.Ascend(start, func(it item) bool {
		rw := it.r
		if pkBounded || fixed {
			pk, rk := rw.keys()
			if pkBounded && !r.PKHigh.BelowHigh(pk) || fixed && !r.RKHigh.BelowHigh(rk) {
				return false
			}
			page.Scanned++
			if pkBounded && !r.PKLow.AboveLow(pk) || fixed && !r.RKLow.AboveLow(rk) {
				return true
			}
		} else {
			page.Scanned++
		}
		if q.Within != nil {
			keys.PartitionKey, keys.RowKey = rw.keys()
			keys.Timestamp = rw.ts
			if !q.Within(&keys) {
				return true
			}
		}
		if match != nil {
			rec.r = rw
			if !match(&rec) {
				return true
			}
		}
		n := 0
		if len(rows) < top {
			n = int(rw.size)
		}
		if len(rows) == top || len(rows) > 0 && size+n > MaxPageBytes {
			page.Scanned-- // the look-ahead entity belongs to the next page
			pk, rk := rw.keys()
			page.NextPartitionKey = EncodeToken(pk)
			page.NextRowKey = EncodeToken(rk)
			return false
		}
		rows = append(rows, rw)
		size += n
		return true
	})
	page.Entities = entities(rows, rec.dict, t.cache)
	return page, nil
}

// Count returns the number of entities in a table, for tests and the
// playground's summaries.
func (s *Store) Count(tableName string) (int, *tableerr.Error) {
	t, err := s.tableFor(tableName)
	if err != nil {
		return 0, err
	}
	return t.view().Len(), nil
}
