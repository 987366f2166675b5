package main

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// writeError answers in the Table service's error format, with the headers
// the engine writes on its own errors: the status of e, the odata.error body
// with its RequestId and Time lines, and no x-ms-error-code, which the
// service sends on authentication failures only (docs/fidelity.md
// F-HEADERS; the entry's errors never are).
func writeError(w http.ResponseWriter, r *http.Request, e *tableerr.Error, requestID string, now time.Time) {
	body := odata.AppendError(nil, e, requestID, edm.TicksFromTime(now))
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Server", "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0")
	h.Set("X-Ms-Request-Id", requestID)
	h.Set("X-Ms-Version", rest.DefaultVersion)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Date", now.UTC().Format(http.TimeFormat))
	if id := r.Header.Get("X-Ms-Client-Request-Id"); id != "" {
		h.Set("X-Ms-Client-Request-Id", id)
	}
	h.Set("Content-Type", odata.MinimalMetadata.ContentType())
	h.Set("Content-Length", strconv.Itoa(len(body)))
	// A page on another origin reads the error too.
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "x-ms-request-id,x-ms-client-request-id")
	w.WriteHeader(e.Status)
	w.Write(body)
}
