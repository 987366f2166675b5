package rest

import (
	"net/http"
	"strconv"

	"github.com/tableplay/tableplay/core/tableerr"
)

// xmlAnswer writes an XML body.
func (x *exchange) xmlAnswer(status int, body []byte) {
	h := x.headers()
	h.Set("Content-Type", "application/xml")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	x.w.WriteHeader(status)
	x.w.Write(body)
}

// xmlFail writes an error of an XML endpoint.
func (x *exchange) xmlFail(e *tableerr.Error) {
	x.xmlAnswer(e.Status, errorXML(e, x.id, x.now))
}

// tableACL answers GET and PUT t?comp=acl.
func (x *exchange) tableACL(table, method string) {
	switch method {
	case http.MethodGet:
		acl, err := x.h.store.ACL(table)
		if err != nil {
			x.xmlFail(err)
			return
		}
		x.xmlAnswer(http.StatusOK, aclXML(acl))
	case http.MethodPut:
		body, err := x.readBody()
		if err != nil {
			x.xmlFail(err)
			return
		}
		ids, err := parseACL(body)
		if err == nil {
			err = x.h.store.SetACL(table, ids)
		}
		if err != nil {
			x.xmlFail(err)
			return
		}
		x.noContent()
	default:
		x.xmlFail(tableerr.New(tableerr.MethodNotAllowed))
	}
}

// service answers the account root: ?restype=service&comp=properties (GET,
// PUT) and &comp=stats (GET).
func (x *exchange) service(method string) {
	if x.query.Get("restype") != "service" {
		x.xmlFail(tableerr.New(tableerr.InvalidQueryParameterValue))
		return
	}
	switch comp := x.query.Get("comp"); {
	case comp == "properties" && method == http.MethodGet:
		x.xmlAnswer(http.StatusOK, propertiesXML(x.h.store.Properties()))
	case comp == "properties" && method == http.MethodPut:
		body, err := x.readBody()
		if err != nil {
			x.xmlFail(err)
			return
		}
		p, err := mergeProperties(x.h.store.Properties(), body)
		if err != nil {
			x.xmlFail(err)
			return
		}
		if err := x.h.store.SetProperties(p); err != nil {
			x.xmlFail(err)
			return
		}
		x.headers()
		x.w.WriteHeader(http.StatusAccepted)
	case comp == "stats" && method == http.MethodGet && !x.secondary:
		// Replication statistics exist only on the secondary endpoint
		// (F-STATS-SECONDARY).
		x.xmlFail(tableerr.New(tableerr.InvalidQueryParameterValue))
	case comp == "stats" && method == http.MethodGet:
		x.xmlAnswer(http.StatusOK, statsXML(x.now))
	case comp == "properties" || comp == "stats":
		x.xmlFail(tableerr.New(tableerr.MethodNotAllowed))
	default:
		x.xmlFail(tableerr.New(tableerr.InvalidQueryParameterValue))
	}
}
