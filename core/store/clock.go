package store

import (
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Clock tells the current time; the store never reads the system clock
// itself, so tests are deterministic.
type Clock func() time.Time

// stamp returns the Timestamp for a write: the clock's time, but strictly
// above last and floor so that every write changes the ETag (F-TIMESTAMP-ETAG) even when
// the clock stalls or runs behind restored data. ok is false when no such
// Timestamp is left in the type's range: the account holds one stamped
// 9999-12-31T23:59:59.9999999Z, the last instant (F-TIMESTAMP-END); a later
// one would be written, and then never read back.
func stamp(c Clock, last, floor edm.Ticks) (t edm.Ticks, ok bool) {
	t = min(edm.TicksFromTime(c()), edm.MaxTicks)
	if t <= last {
		if last >= edm.MaxTicks {
			return edm.MaxTicks, false
		}
		t = last + 1
	}
	if t <= floor {
		if floor >= edm.MaxTicks {
			return edm.MaxTicks, false
		}
		t = floor + 1
	}
	return t, true
}

// endOfTime is the answer to a write that needs a Timestamp when none is
// left (F-TIMESTAMP-END): the service's answer to a DateTime beyond its
// range.
func endOfTime() *tableerr.Error {
	return tableerr.Broke(tableerr.OutOfRangeInput, tableerr.Rule{
		ID:        "timestamp-end-of-time",
		Property:  "Timestamp",
		DetailID:  "timestamp-end",
		Detail:    "the table holds a Timestamp of 9999-12-31T23:59:59.9999999Z, the last instant a DateTime has, so no later Timestamp is left for this write; deletes still work",
		Statement: "A DateTime is between 1601-01-01T00:00:00Z and 9999-12-31T23:59:59.9999999Z (UTC).",
		Section:   "Property types",
		DocURL:    "https://learn.microsoft.com/en-us/rest/api/storageservices/understanding-the-table-service-data-model#property-types",
	})
}
