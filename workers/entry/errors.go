package main

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/tableerr"
)

// writeError answers in the Table service's error format: the status and
// code of e, the odata.error JSON body with its RequestId and Time lines,
// and the headers an error of the service carries.
func writeError(w http.ResponseWriter, e *tableerr.Error, requestID string, now time.Time) {
	body := odata.AppendError(nil, e, requestID, edm.TicksFromTime(now))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Ms-Error-Code", string(e.Code))
	h.Set("X-Ms-Request-Id", requestID)
	h.Set("X-Ms-Version", "2019-02-02")
	h.Set("Date", now.UTC().Format(http.TimeFormat))
	// A page on another origin reads the error too.
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "x-ms-error-code,x-ms-request-id")
	w.WriteHeader(e.Status)
	w.Write(body)
}
