package rest

import (
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/xmlbody"
)

// xmlAnswer writes an XML body.
func (x *exchange) xmlAnswer(status int, body []byte) {
	x.headers()
	x.send(status, "application/xml", body)
}

// xmlFail writes an error of an XML endpoint.
func (x *exchange) xmlFail(e *tableerr.Error) {
	x.xmlAnswer(e.Status, xmlbody.Error(e, x.id, x.now))
}

// service answers the account's XML operations: service properties (GET,
// PUT) and stats, by their answer's shape.
func (x *exchange) service(o op.Operation, shape op.Answer) {
	switch shape {
	case op.PropertiesDocument:
		x.xmlAnswer(200, xmlbody.Properties(x.h.store.Properties()))
	case op.PropertiesSet:
		p, err := xmlbody.MergeProperties(x.h.store.Properties(), o.Body)
		if err != nil {
			x.xmlFail(err)
			return
		}
		if err := x.h.store.SetProperties(p); err != nil {
			x.xmlFail(err)
			return
		}
		x.headers()
		x.w.WriteHeader(202)
	case op.StatsDocument:
		if !x.secondary {
			// Replication statistics exist only on the secondary endpoint
			// (F-STATS-SECONDARY).
			x.xmlFail(tableerr.New(tableerr.InvalidQueryParameterValue))
			return
		}
		x.xmlAnswer(200, xmlbody.Stats(x.now))
	}
}
