package rest

import (
	"github.com/tableplay/tableplay/core/store"
)

// QueryStats is what one page of an entity query cost: the entities the
// store examined, those it returned, and whether a continuation followed.
type QueryStats struct {
	// Scanned is how many entities the store examined, matching or not.
	Scanned int `json:"scanned"`
	// Returned is how many entities the page holds.
	Returned int `json:"returned"`
	// More says a continuation followed (the query has a next page).
	More bool `json:"more"`
}

// noteQuery records a query page's figures for ServeMeasured, when the
// request came through it.
func noteQuery(r *Request, p *store.Page) {
	if s := r.stats; s != nil {
		*s = QueryStats{Scanned: p.Scanned, Returned: len(p.Entities), More: p.More()}
	}
}

// ServeMeasured answers a Call as Serve does and, when it was an entity
// query that reached the store, also says what the page cost: one run for
// both the answer and its figures. The figures are nil otherwise.
func (h *Handler) ServeMeasured(c Call) (Reply, *QueryStats) {
	stats := &QueryStats{Scanned: -1}
	reply := h.serveCall(c, stats)
	if stats.Scanned < 0 {
		return reply, nil
	}
	return reply, stats
}
