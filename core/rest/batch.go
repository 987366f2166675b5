package rest

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// batchOp is a changeset part turned into a store operation, with what its
// answer needs.
type batchOp struct {
	part    batchPart
	op      store.Op
	table   string
	level   odata.Level
	prefer  string // Preference-Applied for inserts, "" without Prefer
	content bool   // insert returns content (201)
}

// batch answers POST $batch: the changeset runs as one store transaction and
// the answer is written in the live service's exact layout (F-BATCH-FAILURE,
// F-BATCH-FRAMING). A malformed envelope is a plain 400 InvalidInput.
func (x *exchange) batch() {
	body, err := x.readBody()
	if err != nil {
		x.fail(err)
		return
	}
	env, perr := ParseBatch(x.r.Header.Get("Content-Type"), body)
	if perr != nil {
		x.fail(tableerr.New(tableerr.InvalidInput))
		return
	}
	w := &batchWriter{batch: "batchresponse_" + x.h.newID(), version: x.version}
	if env.get != nil {
		x.batchGet(w, env.get)
	} else {
		x.changeset(w, env.changeset)
	}
	out := w.finish()
	h := x.headers()
	h.Del("Preference-Applied")
	h.Set("Content-Type", "multipart/mixed; boundary="+w.batch)
	h.Set("Content-Length", strconv.Itoa(len(out)))
	x.w.WriteHeader(http.StatusAccepted)
	x.w.Write(out)
}

// changeset runs the writes of a changeset.
func (x *exchange) changeset(w *batchWriter, parts []batchPart) {
	w.openChangeset("changesetresponse_" + x.h.newID())
	ops := make([]batchOp, 0, len(parts))
	for i, p := range parts {
		bo, err := x.batchOperation(p)
		if err == nil && i > 0 && !strings.EqualFold(bo.table, ops[0].table) {
			err = tableerr.New(tableerr.CommandsInBatchActOnDifferentPartitions)
		}
		if err != nil {
			// An earlier operation may already break a batch rule.
			plain := make([]store.Op, len(ops))
			for j := range ops {
				plain[j] = ops[j].op
			}
			idx := i
			if j, berr := store.CheckBatch(plain); berr != nil {
				idx, err = j, berr
			}
			x.failPart(w, parts, idx, bo, err)
			return
		}
		ops = append(ops, bo)
	}
	if len(ops) == 0 {
		w.closeChangeset()
		return
	}
	plain := make([]store.Op, len(ops))
	for i := range ops {
		plain[i] = ops[i].op
	}
	stored, txErr := x.h.store.Transact(ops[0].table, plain)
	if txErr != nil {
		x.failPart(w, parts, txErr.Index, ops[min(txErr.Index, len(ops)-1)], txErr.Err)
		return
	}
	for i, bo := range ops {
		w.success(x, bo, stored[i])
	}
	w.closeChangeset()
}

// batchOperation turns one part into an operation.
func (x *exchange) batchOperation(p batchPart) (batchOp, *tableerr.Error) {
	bo := batchOp{part: p, level: odata.MinimalMetadata}
	if f := negotiate(p.req, p.req.URL.Query()); f.json {
		bo.level = f.level
	}
	if _, ok := p.req.Header["Prefer"]; ok {
		bo.content, bo.prefer = preference(p.req.Header)
	} else {
		bo.content = true
	}
	res, err := x.partResource(p)
	if err != nil {
		return bo, err
	}
	bo.table = res.table
	method, err := effectiveMethod(p.req)
	if err != nil {
		return bo, err
	}
	switch {
	case res.kind == resEntities && method == http.MethodPost:
		e, err := odata.DecodeEntity(p.body)
		if err != nil {
			return bo, err
		}
		bo.op = store.Op{Kind: store.Insert, Entity: e}
	case res.kind == resEntity && (method == http.MethodPut || method == "MERGE"):
		m, err := ifMatch(p.req.Header)
		if err != nil {
			return bo, err
		}
		e, err := decodeForKeys(p.body, res.pk, res.rk)
		if err != nil {
			return bo, err
		}
		bo.op = store.Op{Kind: writeKind(method, m), Entity: e, IfMatch: m}
	case res.kind == resEntity && method == http.MethodDelete:
		m, err := ifMatch(p.req.Header)
		if err != nil {
			return bo, err
		}
		if m.Kind == store.MatchNone {
			return bo, tableerr.New(tableerr.MissingRequiredHeader)
		}
		bo.op = store.Op{Kind: store.Delete, Entity: &entity.Entity{PartitionKey: res.pk, RowKey: res.rk}, IfMatch: m}
	default:
		return bo, tableerr.New(tableerr.InvalidInput) // queries and table operations have no place in a changeset
	}
	if x.grant != nil {
		e := bo.op.Entity
		a := access{table: res.table, kind: bo.op.Kind, pk: e.PartitionKey, rk: e.RowKey, haveKeys: true}
		if err := x.grant.allow(a); err != nil {
			return bo, err
		}
	}
	return bo, nil
}

// partResource resolves a sub-request URL: absolute or relative, with or
// without the account segment (F-BATCH-ENVELOPE).
func (x *exchange) partResource(p batchPart) (resource, *tableerr.Error) {
	path := strings.TrimPrefix(p.req.URL.EscapedPath(), "/")
	if acct, rest, ok := strings.Cut(path, "/"); ok && acct == x.h.creds.Account {
		path = rest
	}
	return parseResource(path)
}

// failPart writes the single part of a failed changeset: the failing
// operation's own status and error, its message prefixed "<index>:" when the
// changeset holds more than one operation (F-BATCH-FAILURE).
func (x *exchange) failPart(w *batchWriter, parts []batchPart, index int, bo batchOp, err *tableerr.Error) {
	if len(parts) > 1 {
		err = err.Prefixed(index)
	}
	contentID := ""
	if index < len(parts) {
		contentID = parts[index].contentID
	}
	w.failure(x, err, contentID, bo)
	w.closeChangeset()
}

// batchGet answers the single-GET form: one entity, straight under the batch
// boundary.
func (x *exchange) batchGet(w *batchWriter, p *batchPart) {
	level := odata.MinimalMetadata
	if f := negotiate(p.req, p.req.URL.Query()); f.json {
		level = f.level
	}
	w.b.WriteString("--" + w.batch + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
	res, err := x.partResource(*p)
	if err == nil && res.kind != resEntity {
		err = tableerr.New(tableerr.InvalidInput)
	}
	var e *entity.Entity
	if err == nil {
		e, err = x.h.store.Get(res.table, res.pk, res.rk)
	}
	if err != nil {
		w.status(err.Status)
		w.header("X-Content-Type-Options", "nosniff")
		w.header("Cache-Control", "no-cache")
		w.header("DataServiceVersion", "3.0;")
		w.header("Content-Type", level.ContentType())
		w.b.WriteString("\r\n")
		w.b.Write(odata.AppendError(nil, err, x.id, edm.TicksFromTime(x.now)))
		w.b.WriteString("\r\n")
		return
	}
	w.status(http.StatusOK)
	w.header("DataServiceVersion", "3.0;")
	w.header("Content-Type", level.ContentType())
	w.header("X-Content-Type-Options", "nosniff")
	w.header("Cache-Control", "no-cache")
	w.header("ETag", odata.ETag(e.Timestamp))
	w.b.WriteString("\r\n")
	c := &odata.Context{Base: x.base, Account: x.h.creds.Account, Table: res.table, Level: level}
	w.b.Write(odata.AppendEntity(nil, c, e, nil))
	w.b.WriteString("\r\n")
}

// batchWriter lays out a batch response byte for byte as the live service.
type batchWriter struct {
	b         bytes.Buffer
	batch     string
	changeset string
	version   string
}

func (w *batchWriter) openChangeset(boundary string) {
	w.changeset = boundary
	w.b.WriteString("--" + w.batch + "\r\nContent-Type: multipart/mixed; boundary=" + boundary + "\r\n\r\n")
}

func (w *batchWriter) closeChangeset() {
	w.b.WriteString("--" + w.changeset + "--\r\n")
	// Recorded at x-ms-version 2025-07-05: one more blank line before the
	// closing batch boundary (absent in 2019-02-02 recordings).
	if w.version >= "2025-07-05" {
		w.b.WriteString("\r\n")
	}
}

func (w *batchWriter) finish() []byte {
	w.b.WriteString("--" + w.batch + "--\r\n")
	return w.b.Bytes()
}

func (w *batchWriter) part() {
	w.b.WriteString("--" + w.changeset + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
}

func (w *batchWriter) status(code int) {
	w.b.WriteString("HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n")
}

func (w *batchWriter) header(k, v string) { w.b.WriteString(k + ": " + v + "\r\n") }

// success writes one operation's answer.
func (w *batchWriter) success(x *exchange, bo batchOp, e *entity.Entity) {
	w.part()
	insert := bo.op.Kind == store.Insert
	switch {
	case insert && bo.content:
		w.status(http.StatusCreated)
	default:
		w.status(http.StatusNoContent)
	}
	if bo.part.contentID != "" {
		w.header("Content-ID", bo.part.contentID)
	}
	w.header("X-Content-Type-Options", "nosniff")
	w.header("Cache-Control", "no-cache")
	if insert {
		if bo.prefer != "" {
			w.header("Preference-Applied", bo.prefer)
		}
		w.header("DataServiceVersion", "3.0;")
		loc := x.base + "/" + odata.EntityPath(bo.table, e.PartitionKey, e.RowKey)
		if bo.content {
			w.header("Content-Type", bo.level.ContentType())
			w.header("Location", loc)
			w.header("ETag", odata.ETag(e.Timestamp))
			w.b.WriteString("\r\n")
			c := &odata.Context{Base: x.base, Account: x.h.creds.Account, Table: bo.table, Level: bo.level}
			w.b.Write(odata.AppendEntity(nil, c, e, nil))
			w.b.WriteString("\r\n")
			return
		}
		w.header("Location", loc)
		w.header("DataServiceId", loc)
	} else {
		w.header("DataServiceVersion", "1.0;")
	}
	if e != nil {
		w.header("ETag", odata.ETag(e.Timestamp))
	}
	// The service leaves an extra blank line after a body-less part (F-BATCH-FRAMING).
	w.b.WriteString("\r\n\r\n")
}

// failure writes the failing operation's part.
func (w *batchWriter) failure(x *exchange, err *tableerr.Error, contentID string, bo batchOp) {
	w.part()
	w.status(err.Status)
	if contentID != "" {
		w.header("Content-ID", contentID)
	}
	w.header("X-Content-Type-Options", "nosniff")
	// A missing table is found before the operation is looked at: the live
	// answer then has neither Cache-Control nor Preference-Applied.
	if err.Code != tableerr.TableNotFound {
		w.header("Cache-Control", "no-cache")
		if bo.prefer != "" {
			w.header("Preference-Applied", bo.prefer)
		}
	}
	w.header("DataServiceVersion", "3.0;")
	w.header("Content-Type", bo.level.ContentType())
	w.b.WriteString("\r\n")
	w.b.Write(odata.AppendError(nil, err, x.id, edm.TicksFromTime(x.now)))
	w.b.WriteString("\r\n")
}
