package rest

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/xmlbody"
)

// execute runs a decoded operation and writes its answer, in the shape its
// row names. The account's XML operations are answered here (their
// documents are core/xmlbody's); everything else runs through op.Execute.
func (x *exchange) execute(d decoded) {
	o := d.op
	shape := o.Kind.Answer()
	switch shape {
	case op.PropertiesDocument, op.PropertiesSet, op.StatsDocument:
		x.service(o, shape)
		return
	case op.BatchAnswer:
		x.batch(d)
		return
	}
	res, f := op.Execute(x.h.store, o, x.grant.within())
	if f != nil {
		if e := x.h.dia.Failure(o.Kind, f.Err); d.xml {
			x.xmlFail(e)
		} else {
			x.fail(e)
		}
		return
	}
	h := x.out
	switch shape {
	case op.TablePage:
		if res.Tables.NextTableName != "" {
			h.Set("x-ms-continuation-NextTableName", res.Tables.NextTableName)
		}
		x.json(200, odata.AppendTables(nil, x.ctx(""), res.Tables.Names))
	case op.TableCreated:
		if x.h.dia.Location() {
			loc := x.base + "/" + odata.TablePath(res.Table)
			h.Set("Location", loc)
			if !d.content {
				h.Set("DataServiceId", loc)
			}
		}
		if etag := x.h.dia.TableETag(edm.TicksFromTime(x.now)); etag != "" {
			x.set("Etag", valETag, etag)
		}
		if !d.content {
			x.noContent()
			return
		}
		x.json(201, odata.AppendTable(nil, x.ctx(""), res.Table))
	case op.TableRead:
		if x.h.dia.TableReadIsList() {
			if res.Table != o.Table {
				x.fail(tableerr.New(tableerr.TableNotFound))
				return
			}
			x.json(200, odata.AppendTables(nil, x.ctx(""), nil))
			return
		}
		x.json(200, odata.AppendTable(nil, x.ctx(""), res.Table))
	case op.EntityPage:
		x.queryPage(o, res)
	case op.EntityRead:
		x.set("Etag", valETag, x.h.dia.ETag(res.Entity.Timestamp))
		x.entityJSON(200, o.Table, res.Entity, projection(o, res))
	case op.EntityCreated:
		stored := res.Entity
		etag, loc := x.etagAndLocation(o.Table, stored)
		x.set("Etag", valETag, etag)
		if x.h.dia.Location() {
			x.set("Location", valLocation, loc)
			if !d.content {
				h["Dataserviceid"] = x.vals[valLocation : valLocation+1 : valLocation+1]
			}
		}
		if !d.content {
			x.noContent()
			return
		}
		x.entityJSON(201, o.Table, stored, nil)
	case op.EntityWritten:
		x.set("Etag", valETag, x.h.dia.ETag(res.Entity.Timestamp))
		if x.applied == "return-content" { // the entity as stored (F-PREFER)
			x.entityJSON(200, o.Table, res.Entity, nil)
			return
		}
		x.noContent()
	case op.ACLDocument:
		x.xmlAnswer(200, xmlbody.ACL(res.ACL))
	case op.NoContent:
		x.noContent()
	default: // a shape this layer has no answer for
		x.fail(tableerr.New(tableerr.InternalError))
	}
}

// entityJSON writes an entity as the body, encoded into a pooled buffer
// (the ResponseWriter copies what it is given).
func (x *exchange) entityJSON(status int, table string, e *entity.Entity, p *odata.Projection) {
	buf := x.h.bodies.get()
	c := x.ctx(table)
	body := odata.AppendEntity(buf.b[:0], c, e, p)
	x.json(status, body)
	x.h.bodies.put(buf, body)
}

// projection is a read's $select for the encoder: nil when absent; present
// but empty selects all and still shows in odata.metadata, as on the
// service.
func projection(o op.Operation, res op.Result) *odata.Projection {
	if o.Query.Select == nil {
		return nil
	}
	return &odata.Projection{Names: res.Select, Text: *o.Query.Select}
}

// location is an entity's URL: the account URL and the entity's path,
// written on the stack and copied once.
func (x *exchange) location(table, pk, rk string) string {
	var buf [512]byte
	b := append(append(buf[:0], x.base...), '/')
	return string(odata.AppendEntityPath(b, table, pk, rk))
}

// etagAndLocation returns a stored entity's ETag and URL, written on the
// stack as one text and copied once: both are read as long as the answer.
func (x *exchange) etagAndLocation(table string, e *entity.Entity) (etag, loc string) {
	var buf [576]byte
	var b []byte
	if x.h.dia.StorageETag() {
		b = odata.AppendETag(buf[:0], e.Timestamp)
	} else {
		b = append(buf[:0], x.h.dia.ETag(e.Timestamp)...)
	}
	n := len(b)
	b = append(append(b, x.base...), '/')
	s := string(odata.AppendEntityPath(b, table, e.PartitionKey, e.RowKey))
	return s[:n], s[n:]
}
