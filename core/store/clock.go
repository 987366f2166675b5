package store

import (
	"time"

	"github.com/tableplay/tableplay/core/edm"
)

// Clock tells the current time; the store never reads the system clock
// itself, so tests are deterministic.
type Clock func() time.Time

// stamp returns the Timestamp for a write: the clock's time, but strictly
// above last and floor so that every write changes the ETag (F-TIMESTAMP-ETAG) even when
// the clock stalls or runs behind restored data.
func stamp(c Clock, last, floor edm.Ticks) edm.Ticks {
	t := edm.TicksFromTime(c())
	if t <= last {
		t = last + 1
	}
	if t <= floor {
		t = floor + 1
	}
	return t
}
