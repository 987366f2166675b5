package dialect

import (
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
)

// BatchTooLarge reports whether a $batch body of n bytes is past the
// implementation's own bound (F-COSMOS-BATCH-SIZE); every request's
// 4 MiB is checked before.
func (d *Dialect) BatchTooLarge(n int) bool {
	return d.p.MaxBatchBytes > 0 && n > d.p.MaxBatchBytes
}

// IfMatch is the condition a request of kind k is taken with when it sent
// m: Azurite deletes whatever the ETag when a Delete Entity request (not
// a batch part) carries no If-Match (F-AZURITE-LAX-VALUES).
func (d *Dialect) IfMatch(k op.Kind, part bool, m store.Match) store.Match {
	if k == op.Delete && !part && m.Kind == store.MatchNone && d.em.DeleteWithoutIfMatch {
		return store.Match{Kind: store.MatchAny}
	}
	return m
}

// Top is the $top a query is run with, given the count read (filter.MaxTop+1
// for one out of range) and the option's text: Azurite reads a whole number
// above 1,000 as 1,000 (F-AZURITE-LAX-VALUES).
func (d *Dialect) Top(top int, text string) int {
	if top == filter.MaxTop+1 && d.em.UncappedTop && countAbove(text, filter.MaxTop) {
		return filter.MaxTop
	}
	return top
}

// countAbove reports whether s is a whole number above limit.
func countAbove(s string, limit int) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return err == nil && n > limit
}
