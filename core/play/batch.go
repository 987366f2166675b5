package play

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// BatchCheck is CheckBatch's answer: the transaction rules as the queue
// stands, each with its state, and the first violation with the index of the
// operation it names (what the service would answer).
type BatchCheck struct {
	// Valid says the queue keeps every rule (Error is nil).
	Valid bool `json:"valid"`
	// Count is how many operations the queue holds.
	Count int `json:"count"`
	// Limit is the most operations one transaction may hold.
	Limit int `json:"limit"`
	// Rules are the transaction rules, in a fixed order, each with its state.
	Rules []BatchRule `json:"rules"`
	Index int         `json:"index"` // of the first offending operation; -1 when valid
	// Error is the first violation as the service would answer it; nil when
	// valid.
	Error *Card `json:"error,omitempty"`
}

// BatchRule is one rule of entity group transactions and whether the queue
// keeps it.
type BatchRule struct {
	// ID names the rule for the page, such as "batch-size".
	ID string `json:"id"`
	// Statement is the rule in one sentence.
	Statement string `json:"statement"`
	// OK says the queue keeps the rule.
	OK bool `json:"ok"`
}

// batchOps turns queued operations into store operations, validating each
// entity; the index and error of the first invalid one are returned.
func batchOps(ops []Operation) ([]store.Op, int, *tableerr.Error) {
	out := make([]store.Op, 0, len(ops))
	for i, o := range ops {
		if o.Entity == nil {
			return out, i, tableerr.New(tableerr.InvalidInput)
		}
		var e *entity.Entity
		if o.Kind == "delete" {
			if o.Entity.PartitionKey == nil || o.Entity.RowKey == nil {
				return out, i, tableerr.New(tableerr.PropertiesNeedValue)
			}
			e = &entity.Entity{PartitionKey: *o.Entity.PartitionKey, RowKey: *o.Entity.RowKey}
		} else {
			r := entity.Check(o.Entity.fields())
			if len(r.Violations) > 0 {
				return out, i, r.Violations[0]
			}
			e = r.Entity
		}
		k, _ := op.ParseKind(o.Kind)
		kind, ok := k.Write()
		if !ok {
			return out, i, tableerr.New(tableerr.InvalidInput)
		}
		out = append(out, store.Op{Kind: kind, Entity: e})
	}
	return out, -1, nil
}

// CheckBatch checks a queue of operations (JSON array of Operation) against
// the rules of entity group transactions (F-BATCH-FAILURE): valid entities, one
// PartitionKey, at most 100 operations, each entity once.
func (a *API) CheckBatch(opsJSON []byte) []byte {
	var ops []Operation
	if err := readJSON(opsJSON, &ops); err != nil {
		return errorJSON("not a list of operations: " + err.Error())
	}
	c := BatchCheck{Count: len(ops), Limit: store.MaxBatch, Index: -1, Rules: []BatchRule{
		{ID: "batch-entities", Statement: a.Locale.T(msgBatchEntities), OK: true},
		{ID: "batch-partition", Statement: a.Locale.T(msgBatchPartition), OK: true},
		{ID: "batch-size", Statement: a.Locale.T(msgBatchSize, "n", store.MaxBatch), OK: true},
		{ID: "batch-once", Statement: a.Locale.T(msgBatchOnce), OK: true},
	}}
	fail := func(rule int, index int, err *tableerr.Error) {
		c.Rules[rule].OK = false
		if c.Error == nil {
			card := cardOf(a.Locale, err)
			c.Error, c.Index = &card, index
		}
	}
	plain, bad, err := batchOps(ops)
	if err != nil {
		fail(0, bad, err)
	}
	for i, op := range ops {
		if i > 0 && !strings.EqualFold(op.Table, ops[0].Table) {
			fail(1, i, tableerr.New(tableerr.CommandsInBatchActOnDifferentPartitions))
			break
		}
	}
	if i, err := store.CheckBatch(plain); err != nil {
		switch err.Code {
		case tableerr.CommandsInBatchActOnDifferentPartitions:
			fail(1, i, err)
		case tableerr.InvalidDuplicateRow:
			fail(3, i, err)
		default:
			fail(2, i, err)
		}
	}
	c.Valid = c.Error == nil
	return mustJSON(c)
}

// batchRequest builds the $batch request the Go SDK's SubmitTransaction
// sends: a changeset of application/http parts, each with the request line,
// its headers sorted by name, and the body.
func (a *API) batchRequest(ops []Operation, boundaryID string) (Request, string) {
	if len(ops) == 0 {
		return Request{}, "a transaction needs at least one operation"
	}
	cs := wire.PartWriter{Boundary: "changeset_" + boundaryID}
	// The parts name their resources without the SAS: the outer request
	// carries it.
	inner := *a
	inner.SAS = ""
	for _, p := range ops {
		if p.Kind == "get" {
			return Request{}, "a transaction holds writes only"
		}
		r, msg := inner.build(p)
		if msg != "" {
			return Request{}, msg
		}
		cs.Part([2]string{"Content-Transfer-Encoding", "binary"}, [2]string{"Content-Type", "application/http"})
		cs.B = append(cs.B, r.Method+" "+r.URL+" HTTP/1.1\r\n"...)
		var lines []string
		for _, kv := range r.Headers {
			switch kv[0] {
			case "Authorization", "x-ms-date": // the outer request carries them
				continue
			}
			lines = append(lines, kv[0]+": "+kv[1])
		}
		if p.Kind == "insert" {
			lines = append(lines, "Prefer: return-no-content")
		}
		sort.Strings(lines)
		for _, l := range lines {
			cs.B = append(cs.B, l+"\r\n"...)
		}
		cs.B = append(cs.B, "\r\n"+r.Body...)
	}
	cs.Close()
	outer := wire.PartWriter{Boundary: "batch_" + boundaryID}
	outer.Part([2]string{"Content-Type", "multipart/mixed; boundary=changeset_" + boundaryID})
	outer.B = append(outer.B, cs.B...)
	outer.Close()
	u, err := url.Parse(a.Base + "/$batch")
	if err != nil {
		return Request{}, "bad base URL"
	}
	date := a.Clock().UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	body := string(outer.B)
	h := [][2]string{
		{"Accept", "application/json;odata=minimalmetadata"},
		{"Content-Type", "multipart/mixed; boundary=batch_" + boundaryID},
		{"DataServiceVersion", "3.0"},
		{"x-ms-version", "2019-02-02"},
		{"x-ms-date", date},
		{"Content-Length", strconv.Itoa(len(body))},
	}
	if a.SAS != "" {
		withSAS(u, a.SAS)
	} else {
		h = append(h, [2]string{"Authorization", a.Creds.Sign(date, u)})
	}
	return Request{Method: "POST", URL: u.String(), Body: body, Headers: h}, ""
}

// ReadBatch reads a $batch response body (contentType is its Content-Type):
// the status of each part, and which operation failed (see
// ReadBatchResponse).
func (a *API) ReadBatch(contentType, body string) []byte {
	ans, err := ReadBatchResponse(contentType, body)
	if err != nil {
		return errorJSON(err.Error())
	}
	return mustJSON(ans)
}

// QueryStats runs one page of a query against the store and says how many
// entities it examined and how many it returned, so the page can show what a
// key range saves, and how many the table holds (total).
func (a *API) QueryStats(opJSON []byte) []byte {
	var p Operation
	if err := readJSON(opJSON, &p); err != nil || a.Store == nil {
		return errorJSON("not an operation")
	}
	q := op.Operation{Kind: op.Query, Table: p.Table, Query: op.Options{Top: p.Top, NextPartitionKey: p.NextPartitionKey, NextRowKey: p.NextRowKey}}
	if p.Filter != nil && *p.Filter != "" {
		q.Query.Filter = p.Filter
	}
	res, f := op.Execute(a.Store, q, nil)
	if f != nil {
		return mustJSON(map[string]any{"error": cardOf(a.Locale, f.Err)})
	}
	total, _ := a.Store.Count(p.Table)
	return mustJSON(map[string]any{"scanned": res.Page.Scanned, "returned": len(res.Page.Entities), "more": res.Page.More(), "total": total})
}
