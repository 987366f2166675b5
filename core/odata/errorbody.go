package odata

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

// AppendError appends the service's error body (odata.error), the same at every
// metadata level:
//
//	{"odata.error":{"code":"…","message":{"lang":"en-US","value":"<message>\nRequestId:<id>\nTime:<time>"}}}
//
// The time is written with 7 fractional digits, as the service does.
func AppendError(b []byte, e *tableerr.Error, requestID string, at edm.Ticks) []byte {
	return AppendErrorAs(b, e, requestID, at, false)
}

// AppendErrorAs is AppendError writing the Time line with three fractional
// digits when millis is set, as Azurite does (F-AZURITE-ERROR-TIME).
func AppendErrorAs(b []byte, e *tableerr.Error, requestID string, at edm.Ticks, millis bool) []byte {
	b = append(b, `{"odata.error":{"code":`...)
	b = edm.AppendJSONString(b, string(e.Code))
	b = append(b, `,"message":{"lang":"en-US","value":`...)
	msg := make([]byte, 0, len(e.Message)+80)
	msg = append(msg, e.Message...)
	msg = append(msg, "\nRequestId:"...)
	msg = append(msg, requestID...)
	msg = append(msg, "\nTime:"...)
	if millis {
		msg = at.Time().AppendFormat(msg, "2006-01-02T15:04:05.000Z")
	} else {
		msg = appendTime7(msg, at)
	}
	b = edm.AppendJSONString(b, string(msg))
	return append(b, "}}}"...)
}

// appendTime7 writes a time with exactly 7 fractional digits, the form of the
// error body's Time line.
func appendTime7(b []byte, t edm.Ticks) []byte {
	b = t.Time().AppendFormat(b, "2006-01-02T15:04:05")
	frac := int64(t) % 10_000_000
	var d [8]byte
	d[0] = '.'
	for i := 7; i >= 1; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	b = append(b, d[:]...)
	return append(b, 'Z')
}
