package rest

import (
	"bytes"
	"strconv"

	"github.com/tableplay/tableplay/core/dialect"
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// batch answers POST $batch: the changeset runs as one store transaction and
// the answer is written in the live service's exact layout (F-BATCH-FAILURE,
// F-BATCH-FRAMING). Its parts were decoded, and authorized, one by one as
// top-level requests are.
func (x *exchange) batch(d decoded) {
	// The answer is written into a pooled buffer (a batch answer is tens of
	// kilobytes, which a fresh buffer would allocate and zero every time),
	// returned once the ResponseWriter has taken the bytes.
	buf := x.h.bodies.get()
	w := &batchWriter{version: x.version, form: d.form, batch: d.form.Boundary}
	if w.batch == "" {
		w.batch = "batchresponse_" + x.h.newID()
	}
	w.b = *bytes.NewBuffer(buf.b[:0])
	// An answer is about as long as the request, with metadata; the cap
	// keeps a large batch that fails early from reserving what it never uses.
	w.b.Grow(min(2*d.size, 1<<20))
	if d.single {
		x.batchGet(w, d)
	} else {
		x.changeset(w, d)
	}
	out := w.finish()
	x.headers().Del("Preference-Applied")
	x.send(202, "multipart/mixed; boundary="+w.batch, out)
	x.h.bodies.put(buf, out)
}

// changeset runs the writes of a changeset as one transaction.
func (x *exchange) changeset(w *batchWriter, d decoded) {
	if cs := w.form.Changeset; cs != "" {
		w.openChangeset(cs)
	} else {
		w.openChangeset("changesetresponse_" + x.h.newID())
	}
	if f := d.failed; f != nil {
		// An earlier operation may already break a batch rule.
		idx, err := f.index, f.err
		if j, berr := op.CheckBatch(d.op.Operations); berr != nil {
			idx, err = j, berr
		}
		x.failPart(w, d.parts, idx, d.parts[idx], err) // answered as the part that failed first
		return
	}
	if len(d.parts) == 0 {
		w.closeChangeset()
		return
	}
	res, f := op.Execute(x.h.store, d.op, nil)
	if f != nil {
		x.failPart(w, d.parts, f.Index, d.parts[min(f.Index, len(d.parts)-1)], f.Err)
		return
	}
	for i, p := range d.parts {
		w.success(x, p, res.Batch[i])
	}
	w.closeChangeset()
}

// failPart writes the single part of a failed changeset: the failing
// operation's own status and error, its message prefixed "<index>:" when the
// changeset holds more than one operation (F-BATCH-FAILURE).
func (x *exchange) failPart(w *batchWriter, parts []partAnswer, index int, p partAnswer, err *tableerr.Error) {
	if len(parts) > 1 || w.form.Numbered {
		err = err.Prefixed(index)
	}
	contentID := ""
	switch {
	case w.form.Numbered:
		contentID = strconv.Itoa(index + 1)
	case index < len(parts):
		contentID = parts[index].contentID
	}
	w.failure(x, err, contentID, p)
	w.closeChangeset()
}

// batchGet answers the single-GET form: one entity, straight under the batch
// boundary.
func (x *exchange) batchGet(w *batchWriter, d decoded) {
	p := d.get
	level := p.level
	w.b.WriteString("--" + w.batch + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
	var res op.Result
	err := firstErr(p.early, p.denied, p.late)
	if err == nil {
		var f *op.Failure
		if res, f = op.Execute(x.h.store, p.op, nil); f != nil {
			err = f.Err
		}
	}
	if err != nil {
		w.status(err.Status)
		w.b.WriteString("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n")
		w.errorBody(x, err, level.ContentType(), false)
		return
	}
	e := res.Entity
	w.status(200)
	w.header("DataServiceVersion", "3.0;")
	w.header("Content-Type", level.ContentType())
	w.header("X-Content-Type-Options", "nosniff")
	w.header("Cache-Control", "no-cache")
	w.header("ETag", odata.ETag(e.Timestamp))
	w.b.WriteString("\r\n")
	c := &odata.Context{Base: x.base, Account: x.h.creds.Account, Table: p.op.Table, Level: level}
	w.b.Write(odata.AppendEntity(nil, c, e, nil))
	w.b.WriteString("\r\n")
}

// batchWriter lays out a batch response byte for byte as the live service.
type batchWriter struct {
	b         bytes.Buffer
	batch     string
	changeset string
	version   string
	// form is the layout where it is not the service's.
	form dialect.Batch
}

func (w *batchWriter) openChangeset(boundary string) {
	w.changeset = boundary
	w.b.WriteString("--")
	w.b.WriteString(w.batch)
	w.b.WriteString("\r\nContent-Type: multipart/mixed; boundary=")
	w.b.WriteString(boundary)
	w.b.WriteString("\r\n\r\n")
}

func (w *batchWriter) closeChangeset() {
	w.b.WriteString("--" + w.changeset + "--\r\n")
	// Recorded at x-ms-version 2025-07-05: one more blank line before the
	// closing batch boundary (absent in 2019-02-02 recordings).
	if w.version >= "2025-07-05" && !w.form.NoClosingBlank {
		w.b.WriteString("\r\n")
	}
}

func (w *batchWriter) finish() []byte {
	w.b.WriteString("--" + w.batch + "--\r\n")
	return w.b.Bytes()
}

// The writer's methods write their pieces one by one: a batch answer has
// hundreds of them, and joining each into a string first would allocate.
func (w *batchWriter) part() {
	w.b.WriteString("--")
	w.b.WriteString(w.changeset)
	w.b.WriteString("\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
}

func (w *batchWriter) status(code int) {
	var num [8]byte
	w.b.WriteString("HTTP/1.1 ")
	w.b.Write(strconv.AppendInt(num[:0], int64(code), 10))
	w.b.WriteByte(' ')
	w.b.WriteString(wire.StatusText(code))
	w.b.WriteString("\r\n")
}

func (w *batchWriter) header(k, v string) {
	w.b.WriteString(k)
	w.b.WriteString(": ")
	w.b.WriteString(v)
	w.b.WriteString("\r\n")
}

// success writes one operation's answer. Its ETag and Location are
// written straight into the answer: a batch has a hundred of each.
func (w *batchWriter) success(x *exchange, bo partAnswer, e *entity.Entity) {
	w.part()
	insert := bo.kind.Answer() == op.EntityCreated // 201 with the entity, or 204 by Prefer
	switch {
	case insert && bo.content:
		w.b.WriteString("HTTP/1.1 201 Created\r\n")
	default:
		w.b.WriteString("HTTP/1.1 204 No Content\r\n")
	}
	if bo.contentID != "" {
		w.header("Content-ID", bo.contentID)
	}
	w.b.WriteString("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n")
	if insert {
		if bo.prefer != "" && !w.form.NoPreference {
			w.header("Preference-Applied", bo.prefer)
		}
		w.dataServiceVersion(bo, "3.0")
		if bo.content {
			w.header("Content-Type", bo.level.ContentType())
			w.location(x, "Location", w.locationTable(bo), e)
			w.etag(e)
			w.b.WriteString("\r\n")
			c := &odata.Context{Base: x.base, Account: x.h.creds.Account, Table: bo.table, Level: bo.level}
			w.b.Write(odata.AppendEntity(w.b.AvailableBuffer(), c, e, nil)) // written in place when it fits
			w.b.WriteString("\r\n")
			return
		}
		// DataServiceId repeats Location's URL: its bytes are copied.
		at := w.b.Len()
		w.location(x, "Location", w.locationTable(bo), e)
		loc := w.b.Bytes()[at+len("Location: "):]
		w.b.WriteString("DataServiceId: ")
		w.b.Write(loc)
	} else if w.form.PartVersion && bo.kind != op.Delete {
		w.dataServiceVersion(bo, "3.0")
	} else {
		w.b.WriteString("DataServiceVersion: 1.0;\r\n")
	}
	if e != nil {
		w.etag(e)
	}
	// The service leaves an extra blank line after a body-less part (F-BATCH-FRAMING).
	w.b.WriteString("\r\n\r\n")
}

// location writes a header holding an entity's URL.
func (w *batchWriter) location(x *exchange, key, table string, e *entity.Entity) {
	w.b.WriteString(key)
	w.b.WriteString(": ")
	b := append(append(w.b.AvailableBuffer(), x.base...), '/')
	b = odata.AppendEntityPath(b, table, e.PartitionKey, e.RowKey)
	w.b.Write(append(b, "\r\n"...))
}

// dataServiceVersion writes a part's DataServiceVersion: def, or the
// part's own request value when the layout echoes it.
func (w *batchWriter) dataServiceVersion(bo partAnswer, def string) {
	v := def
	if w.form.PartVersion && bo.dsv != "" {
		v = bo.dsv
	}
	w.header("DataServiceVersion", v+";")
}

// locationTable is the table name a part's Location is written with.
func (w *batchWriter) locationTable(bo partAnswer) string {
	if w.form.TrimQueried && bo.queried && bo.table != "" {
		return bo.table[:len(bo.table)-1]
	}
	return bo.table
}

// etag writes an entity's ETag header.
func (w *batchWriter) etag(e *entity.Entity) {
	w.b.WriteString("ETag: ")
	if w.form.FixedETag {
		w.b.WriteString(odata.ETag7(e.Timestamp))
	} else {
		w.b.Write(odata.AppendETag(w.b.AvailableBuffer(), e.Timestamp))
	}
	w.b.WriteString("\r\n")
}

// failure writes the failing operation's part.
func (w *batchWriter) failure(x *exchange, err *tableerr.Error, contentID string, bo partAnswer) {
	w.part()
	w.status(err.Status)
	if contentID != "" {
		w.header("Content-ID", contentID)
	}
	if w.form.BareFailure {
		w.errorBody(x, err, "application/json;odata=minimalmetadata;charset=utf-8", true)
		return
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
	w.errorBody(x, err, bo.level.ContentType(), false)
}

// errorBody ends a failed part: its DataServiceVersion and Content-Type,
// and the odata.error body (its Time in milliseconds when millis is set).
func (w *batchWriter) errorBody(x *exchange, err *tableerr.Error, contentType string, millis bool) {
	w.header("DataServiceVersion", "3.0;")
	w.header("Content-Type", contentType)
	w.b.WriteString("\r\n")
	w.b.Write(odata.AppendErrorAs(nil, err, x.id, edm.TicksFromTime(x.now), millis))
	w.b.WriteString("\r\n")
}
