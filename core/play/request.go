package play

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
)

// Operation is what the page asks requestFor about.
type Operation struct {
	// Kind is one of createTable, deleteTable, getTable, listTables, insert,
	// get, replace, merge, insertOrReplace, insertOrMerge, delete, query.
	Kind string `json:"kind"`
	// Table is the table acted on; empty for listTables, and for a batch
	// taken from its first operation when empty.
	Table string `json:"table"`
	// Entity is the draft for writes; for get and delete only its keys count.
	Entity *Draft `json:"entity,omitempty"`
	// IfMatch is the ETag for replace, merge and delete ("" → "*", as the SDK).
	IfMatch string `json:"ifMatch,omitempty"`
	// Filter is the $filter of a query or listTables; nil sends none.
	Filter *string `json:"filter,omitempty"`
	// Select is the $select, comma-separated property names; nil sends none
	// (every property).
	Select *string `json:"select,omitempty"`
	// Top is the $top, the most entities or tables in a page; 0 sends none.
	Top int `json:"top,omitempty"`
	// NextPartitionKey and NextRowKey are a query's continuation, from the
	// previous page's x-ms-continuation headers; empty for the first page.
	NextPartitionKey string `json:"nextPartitionKey,omitempty"`
	// NextRowKey is the row half of the continuation, sent with
	// NextPartitionKey.
	NextRowKey string `json:"nextRowKey,omitempty"`
	// NextTableName is listTables' continuation; empty for the first page.
	NextTableName string `json:"nextTableName,omitempty"`
	// Level is the metadata level asked for with $format ("" for the SDK's
	// default, minimal metadata).
	Level string `json:"level,omitempty"`
	// Operations are the writes of a "batch" (one transaction).
	Operations []Operation `json:"operations,omitempty"`
}

// Request is an HTTP request laid out for display and for sending with
// fetch: the headers in the order they are listed.
type Request struct {
	// Method is the HTTP method, such as "GET" or "PATCH" (the SDK's merge).
	Method string `json:"method"`
	// URL is the absolute URL, query string included.
	URL string `json:"url"`
	// Headers are name and value pairs in display order, Authorization
	// last (it signs the others).
	Headers [][2]string `json:"headers"`
	// Body is the request body; empty when the operation sends none.
	Body string `json:"body"`
	// Changes says the operation would change the account (a read-only
	// playground shows such a request without running it).
	Changes bool `json:"changes,omitempty"`
	// Error says why no request could be built; the other fields are then
	// empty.
	Error string `json:"error,omitempty"`
}

// RequestFor builds the request the Go SDK (aztables v1.4.1) sends for an
// operation, signed with SharedKeyLite and the account key. Entity bodies are
// built from valid drafts only.
func (a *API) RequestFor(opJSON []byte) []byte {
	return mustJSON(a.requestOf(opJSON))
}

// requestOf is RequestFor before encoding; Error says why there is none.
func (a *API) requestOf(opJSON []byte) Request {
	var p Operation
	if err := readJSON(opJSON, &p); err != nil {
		return Request{Error: "not an operation: " + err.Error()}
	}
	r, msg := a.Build(p)
	if msg != "" {
		return Request{Error: msg}
	}
	return r
}

// build checks the metadata level, converts the page's operation and
// encodes the request.
func (a *API) build(p Operation) (Request, string) {
	if p.Level != "" {
		if _, ok := odata.ParseLevel(p.Level); !ok {
			return Request{}, "unknown metadata level " + p.Level
		}
	}
	o, err := p.typed()
	if err != nil {
		return Request{}, err.Error()
	}
	r, msg := a.encode(o, p.Level)
	r.Changes = o.Kind.Changes()
	return r, msg
}

// encode lays out the request the Go SDK sends for an operation, at a
// metadata level ("" for the SDK's default).
func (a *API) encode(o op.Operation, level string) (Request, string) {
	const minimal = "application/json;odata=minimalmetadata"
	r := Request{}
	q := url.Values{}
	if level != "" {
		q.Set("$format", "application/json;odata="+level)
	}
	var h [][2]string
	add := func(k, v string) { h = append(h, [2]string{k, v}) }
	spec := o.Kind.Spec() // the SDK's request follows the operation's row
	var path string
	switch spec.Resource {
	case op.TableList:
		path = "/Tables"
	case op.OneTable:
		path = "/" + odata.TablePath(o.Table)
	case op.Entities:
		path = "/" + url.PathEscape(o.Table)
		if spec.Method == op.MethodGet {
			path += "()" // the SDK queries t()
		}
	case op.OneEntity:
		path = op.EntityPath(o.Table, o.PartitionKey, o.RowKey)
	default: // the XML endpoints and $batch (built by batchRequest)
		return r, "unknown operation " + strconv.Quote(o.Kind.String())
	}
	r.Method = spec.Method.String()
	if spec.Method == op.MethodMerge {
		r.Method = "PATCH" // the SDK's merge verb
	}
	if spec.Params == op.QueryParams { // aztables' GetEntity sends no $select
		setQuery(q, o.Query)
		if spec.Resource == op.Entities && o.Query.NextPartitionKey != "" {
			q.Set("NextPartitionKey", o.Query.NextPartitionKey)
			q.Set("NextRowKey", o.Query.NextRowKey)
		}
	}
	switch spec.Body {
	case op.NoBody:
	case op.TableNameBody:
		body, _ := json.Marshal(map[string]string{"TableName": o.Table})
		r.Body = string(body)
	case op.EntityBody, op.UpdateBody:
		r.Body = string(sdkBody(o.Entity))
	default:
		return r, "unknown operation " + strconv.Quote(o.Kind.String())
	}
	// aztables' DeleteTable sends a plain Accept and no DataServiceVersion;
	// its update calls a plain Accept too.
	accept := minimal
	if o.Kind == op.DeleteTable || spec.Answer == op.EntityWritten {
		accept = "application/json"
	}
	add("Accept", accept)
	if spec.Body != op.NoBody {
		add("Content-Type", "application/json")
	}
	if o.Kind != op.DeleteTable {
		add("DataServiceVersion", "3.0")
	}
	if spec.Condition == op.Conditional {
		add("If-Match", matchText(o.IfMatch))
	}
	u, err := url.Parse(a.Base + path)
	if err != nil {
		return r, "bad base URL: " + err.Error()
	}
	u.RawQuery = q.Encode()
	r.URL = u.String()
	date := a.Clock().UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	add("x-ms-version", "2019-02-02")
	add("x-ms-date", date)
	if r.Body != "" {
		add("Content-Length", strconv.Itoa(len(r.Body)))
	}
	if a.SAS != "" {
		withSAS(u, a.SAS)
		r.URL = u.String()
	} else {
		add("Authorization", a.Creds.Sign(date, u))
	}
	r.Headers = h
	return r, ""
}

// matchText is an If-Match condition as the header carries it.
func matchText(m store.Match) string {
	if m.Kind == store.MatchETag {
		return odata.ETag(m.ETag)
	}
	return "*"
}

// boundaryID makes a GUID-shaped multipart boundary id from a number (the SDK
// uses a random UUID; any unique text will do).
func boundaryID(n int64) string {
	h := strconv.FormatUint(uint64(n), 16)
	h = strings.Repeat("0", 32-min(32, len(h))) + h
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// setQuery adds $filter, $select and $top as the SDK does.
func setQuery(q url.Values, o op.Options) {
	if o.Filter != nil {
		q.Set("$filter", *o.Filter)
	}
	if o.Select != nil {
		q.Set("$select", *o.Select)
	}
	if o.Top > 0 {
		q.Set("$top", strconv.Itoa(o.Top))
	}
	if o.NextTableName != "" {
		q.Set("NextTableName", o.NextTableName)
	}
}

// Build is RequestFor for Go callers: the request for an operation (a batch
// included), or the reason it cannot be built.
func (a *API) Build(p Operation) (Request, string) {
	if p.Kind == "batch" {
		return a.batchRequest(p.Operations, boundaryID(a.Clock().UnixNano()))
	}
	return a.build(p)
}
