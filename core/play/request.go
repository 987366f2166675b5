package play

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
)

// Operation is what the page asks requestFor about.
type Operation struct {
	// Kind is one of createTable, deleteTable, getTable, listTables, insert,
	// get, replace, merge, insertOrReplace, insertOrMerge, delete, query.
	Kind  string `json:"kind"`
	Table string `json:"table"`
	// Entity is the draft for writes; for get and delete only its keys count.
	Entity *Draft `json:"entity,omitempty"`
	// IfMatch is the ETag for replace, merge and delete ("" → "*", as the SDK).
	IfMatch string `json:"ifMatch,omitempty"`
	// Query options.
	Filter           *string `json:"filter,omitempty"`
	Select           *string `json:"select,omitempty"`
	Top              int     `json:"top,omitempty"`
	NextPartitionKey string  `json:"nextPartitionKey,omitempty"`
	NextRowKey       string  `json:"nextRowKey,omitempty"`
	NextTableName    string  `json:"nextTableName,omitempty"`
	// Level is the metadata level asked for with $format ("" for the SDK's
	// default, minimal metadata).
	Level string `json:"level,omitempty"`
	// Operations are the writes of a "batch" (one transaction).
	Operations []Operation `json:"operations,omitempty"`
}

// Request is an HTTP request laid out for display and for sending with
// fetch: the headers in the order they are listed.
type Request struct {
	Method  string      `json:"method"`
	URL     string      `json:"url"`
	Headers [][2]string `json:"headers"`
	Body    string      `json:"body"`
	Error   string      `json:"error,omitempty"`
}

// RequestFor builds the request the Go SDK (aztables v1.4.1) sends for an
// operation, signed with SharedKeyLite and the account key. Entity bodies are
// built from valid drafts only.
func (a *API) RequestFor(opJSON []byte) []byte {
	return mustJSON(a.requestOf(opJSON))
}

// requestOf is RequestFor before encoding; Error says why there is none.
func (a *API) requestOf(opJSON []byte) Request {
	var op Operation
	if err := json.Unmarshal(opJSON, &op); err != nil {
		return Request{Error: "not an operation: " + err.Error()}
	}
	r, msg := a.Build(op)
	if msg != "" {
		return Request{Error: msg}
	}
	return r
}

func (a *API) build(op Operation) (Request, string) {
	const minimal = "application/json;odata=minimalmetadata"
	r := Request{}
	q := url.Values{}
	if op.Level != "" {
		if _, ok := odata.ParseLevel(op.Level); !ok {
			return r, "unknown metadata level " + op.Level
		}
		q.Set("$format", "application/json;odata="+op.Level)
	}
	var h [][2]string
	add := func(k, v string) { h = append(h, [2]string{k, v}) }
	var path string
	var e *entity.Entity
	needEntity := func() string {
		if op.Entity == nil {
			return "this operation needs an entity"
		}
		rep := entity.Check(op.Entity.fields())
		if len(rep.Violations) > 0 {
			return "the entity breaks a rule: " + rep.Violations[0].Message
		}
		e = rep.Entity
		return ""
	}
	keys := func() string {
		if op.Entity == nil || op.Entity.PartitionKey == nil || op.Entity.RowKey == nil {
			return "this operation needs PartitionKey and RowKey"
		}
		// The SDK doubles quotes, then escapes the key for the path.
		pk := url.PathEscape(strings.ReplaceAll(*op.Entity.PartitionKey, "'", "''"))
		rk := url.PathEscape(strings.ReplaceAll(*op.Entity.RowKey, "'", "''"))
		path = "/" + url.PathEscape(op.Table) + "(PartitionKey='" + pk + "',RowKey='" + rk + "')"
		return ""
	}
	ifMatch := op.IfMatch
	if ifMatch == "" {
		ifMatch = "*"
	}
	switch op.Kind {
	case "createTable":
		r.Method, path = "POST", "/Tables"
		body, _ := json.Marshal(map[string]string{"TableName": op.Table})
		r.Body = string(body)
		add("Accept", minimal)
		add("Content-Type", "application/json")
		add("DataServiceVersion", "3.0")
	case "deleteTable":
		r.Method, path = "DELETE", "/"+odata.TablePath(op.Table)
		add("Accept", "application/json")
	case "getTable":
		r.Method, path = "GET", "/"+odata.TablePath(op.Table)
		add("Accept", minimal)
		add("DataServiceVersion", "3.0")
	case "listTables":
		r.Method, path = "GET", "/Tables"
		setQuery(q, op)
		add("Accept", minimal)
		add("DataServiceVersion", "3.0")
	case "query":
		r.Method, path = "GET", "/"+url.PathEscape(op.Table)+"()"
		setQuery(q, op)
		if op.NextPartitionKey != "" {
			q.Set("NextPartitionKey", op.NextPartitionKey)
			q.Set("NextRowKey", op.NextRowKey)
		}
		add("Accept", minimal)
		add("DataServiceVersion", "3.0")
	case "insert":
		if msg := needEntity(); msg != "" {
			return r, msg
		}
		r.Method, path, r.Body = "POST", "/"+url.PathEscape(op.Table), string(sdkBody(e))
		add("Accept", minimal)
		add("Content-Type", "application/json")
		add("DataServiceVersion", "3.0")
	case "get":
		if msg := keys(); msg != "" {
			return r, msg
		}
		r.Method = "GET"
		add("Accept", minimal)
		add("DataServiceVersion", "3.0")
	case "replace", "merge", "insertOrReplace", "insertOrMerge":
		if msg := needEntity(); msg != "" {
			return r, msg
		}
		if msg := keys(); msg != "" {
			return r, msg
		}
		r.Method, r.Body = "PUT", string(sdkBody(e))
		if op.Kind == "merge" || op.Kind == "insertOrMerge" {
			r.Method = "PATCH" // the SDK's merge verb
		}
		add("Accept", "application/json")
		add("Content-Type", "application/json")
		add("DataServiceVersion", "3.0")
		if op.Kind == "replace" || op.Kind == "merge" {
			add("If-Match", ifMatch)
		}
	case "delete":
		if msg := keys(); msg != "" {
			return r, msg
		}
		r.Method = "DELETE"
		add("Accept", minimal)
		add("DataServiceVersion", "3.0")
		add("If-Match", ifMatch)
	default:
		return r, "unknown operation " + strconv.Quote(op.Kind)
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
	add("Authorization", a.Creds.Sign(date, u))
	r.Headers = h
	return r, ""
}

// boundaryID makes a GUID-shaped multipart boundary id from a number (the SDK
// uses a random UUID; any unique text will do).
func boundaryID(n int64) string {
	h := strconv.FormatUint(uint64(n), 16)
	h = strings.Repeat("0", 32-min(32, len(h))) + h
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// setQuery adds $filter, $select and $top as the SDK does.
func setQuery(q url.Values, op Operation) {
	if op.Filter != nil {
		q.Set("$filter", *op.Filter)
	}
	if op.Select != nil {
		q.Set("$select", *op.Select)
	}
	if op.Top > 0 {
		q.Set("$top", strconv.Itoa(op.Top))
	}
	if op.NextTableName != "" {
		q.Set("NextTableName", op.NextTableName)
	}
}

// Build is RequestFor for Go callers: the request for an operation (a batch
// included), or the reason it cannot be built.
func (a *API) Build(op Operation) (Request, string) {
	if op.Kind == "batch" {
		return a.batchRequest(op.Operations, boundaryID(a.Clock().UnixNano()))
	}
	return a.build(op)
}
