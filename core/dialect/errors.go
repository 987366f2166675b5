package dialect

import (
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Failure is the error an operation of kind k that failed with e answers:
// Azurite answers a read of a missing table TableNotFound
// (F-AZURITE-GET-TABLE).
func (d *Dialect) Failure(k op.Kind, e *tableerr.Error) *tableerr.Error {
	if k == op.GetTable && e.Code == tableerr.ResourceNotFound && d.em.TableNotFoundRead {
		return tableerr.New(tableerr.TableNotFound)
	}
	return e
}

// Error is e as the implementation answers it: its code, status or
// message rewritten (F-AZURITE-EMPTY-CODE).
func (d *Dialect) Error(e *tableerr.Error) *tableerr.Error {
	rule := ""
	if e.Rule != nil {
		rule = e.Rule.ID
	}
	r, ok := d.em.Rewrite(rule, string(e.Code), e.Message)
	if !ok {
		return e
	}
	c := *e
	c.Code = tableerr.Code(r.Code)
	if r.Status != 0 {
		c.Status = r.Status
	}
	if r.Message != "" {
		c.Message = r.Message
	}
	return &c
}

// ErrorBody is the odata.error body of e for a request answered at level
// l, and its Content-Type: the service's at l, with its RequestId and Time
// lines (Azurite's Time in milliseconds, F-AZURITE-ERROR-TIME), or the
// Cosmos gateway's in full metadata whatever was asked (F-COSMOS-ERRORS).
func (d *Dialect) ErrorBody(e *tableerr.Error, requestID string, now time.Time, l odata.Level) (body []byte, contentType string) {
	if d.p.Errors == profile.CosmosErrors {
		return odata.AppendCosmosError(nil, e, requestID), d.ContentType(odata.FullMetadata)
	}
	return odata.AppendErrorAs(nil, e, requestID, edm.TicksFromTime(now), d.em.ErrorTimeMillis), l.ContentType()
}

// ErrorCode is the x-ms-error-code of an error answer, "" for none:
// Azurite sends every code that is not empty (F-AZURITE-ERROR-CODE-HEADER).
func (d *Dialect) ErrorCode(e *tableerr.Error) string {
	if d.em.ErrorCodeHeader {
		return string(e.Code)
	}
	return ""
}

// ErrorKeepsPreference says an error answer keeps Preference-Applied;
// Azurite, which echoes it unasked, never sends it on an error
// (F-AZURITE-PREFER-ECHO).
func (d *Dialect) ErrorKeepsPreference() bool { return !d.em.AlwaysPreference }
