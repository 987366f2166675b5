package rest

import (
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
)

// MaxPageBody is the most bytes a query page's body holds, whatever the
// metadata level and $select (F-PAGE-BYTES). A page holds at least one
// entity, so only a page of one entity whose own text is longer passes it.
const MaxPageBody = 4 << 20

// queryPage writes a page of Query Entities. The store cut it by count and
// by the entities' sizes; the body is cut again by the bytes written, and
// the continuation then names the first entity left out, where the next
// page resumes.
func (x *exchange) queryPage(o op.Operation, res op.Result) {
	page := res.Page
	buf := x.h.bodies.get()
	body, n := odata.AppendEntitiesWithin(buf.b[:0], x.ctx(o.Table), page.Entities, projection(o, res), MaxPageBody)
	if n < len(page.Entities) {
		next := page.Entities[n]
		page.NextPartitionKey, page.NextRowKey = x.h.dia.Continuation(next)
		page.Entities = page.Entities[:n]
	}
	noteQuery(&x.r, &page)
	if page.More() {
		x.out.Set("x-ms-continuation-NextPartitionKey", page.NextPartitionKey)
		x.out.Set("x-ms-continuation-NextRowKey", page.NextRowKey)
	}
	x.json(200, body)
	x.h.bodies.put(buf, body)
}
