package rest

import (
	"net/http"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// filterAndTop reads $filter and $top. An empty $filter, as Storage
// Explorer sends it, is no filter (F-FILTER-EMPTY).
func (x *exchange) filterAndTop() (filter.Node, int, *tableerr.Error) {
	var n filter.Node
	top := 0
	if f, ok := x.query["$filter"]; ok && f[0] != "" {
		var err *tableerr.Error
		if n, err = filter.Parse(f[0]); err != nil {
			return nil, 0, err
		}
	}
	if t, ok := x.query["$top"]; ok {
		var err *tableerr.Error
		if top, err = filter.ParseTop(t[0]); err != nil {
			return nil, 0, err
		}
		if top == 0 {
			top = store.NoEntities // an empty page (F-TOP-ZERO)
		}
	}
	return n, top, nil
}

// projection reads $select: nil when absent; present but empty selects all
// and still shows in odata.metadata, as on the service.
func (x *exchange) projection() (*odata.Projection, *tableerr.Error) {
	v, ok := x.query["$select"]
	if !ok {
		return nil, nil
	}
	names, err := filter.ParseSelect(v[0])
	if err != nil {
		return nil, err
	}
	return &odata.Projection{Names: names, Text: v[0]}, nil
}

// queryEntities answers GET t() with $filter, $select, $top and the
// continuation tokens.
func (x *exchange) queryEntities(table string) {
	if err := x.format.requireJSON(); err != nil {
		x.fail(err)
		return
	}
	f, top, err := x.filterAndTop()
	if err != nil {
		x.fail(err)
		return
	}
	sel, err := x.projection()
	if err != nil {
		x.fail(err)
		return
	}
	q := store.Query{Filter: f, Top: top, NextPartitionKey: x.query.Get("NextPartitionKey"), NextRowKey: x.query.Get("NextRowKey"), Within: x.grant.within()}
	page, err := x.h.store.Query(table, q)
	if err != nil {
		x.fail(err)
		return
	}
	noteQuery(x.r, &page)
	if page.More() {
		x.w.Header().Set("x-ms-continuation-NextPartitionKey", page.NextPartitionKey)
		x.w.Header().Set("x-ms-continuation-NextRowKey", page.NextRowKey)
	}
	x.json(http.StatusOK, odata.AppendEntities(make([]byte, 0, 256*len(page.Entities)+128), x.ctx(table), page.Entities, sel))
}

// getEntity answers GET t(PartitionKey='…',RowKey='…').
func (x *exchange) getEntity(res resource) {
	if err := x.format.requireJSON(); err != nil {
		x.fail(err)
		return
	}
	sel, err := x.projection()
	if err != nil {
		x.fail(err)
		return
	}
	e, err := x.h.store.Get(res.table, res.pk, res.rk)
	if err != nil {
		x.fail(err)
		return
	}
	x.w.Header().Set("ETag", odata.ETag(e.Timestamp))
	x.json(http.StatusOK, odata.AppendEntity(nil, x.ctx(res.table), e, sel))
}

// insertEntity answers POST t: 201 with the entity, or 204 with
// Prefer: return-no-content.
func (x *exchange) insertEntity(table string) {
	body, ok := x.jsonBody()
	if !ok {
		return
	}
	e, err := odata.DecodeEntity(body)
	if err != nil {
		x.fail(err)
		return
	}
	if x.grant != nil && !x.grant.account && !x.grant.inRange(e.PartitionKey, e.RowKey) {
		x.failAuth(tableerr.New(tableerr.AuthorizationFailure)) // outside the SAS key range
		return
	}
	stored, err := x.h.store.Apply(table, store.Op{Kind: store.Insert, Entity: e})
	if err != nil {
		x.fail(err)
		return
	}
	loc := x.base + "/" + odata.EntityPath(table, stored.PartitionKey, stored.RowKey)
	h := x.w.Header()
	h.Set("ETag", odata.ETag(stored.Timestamp))
	h.Set("Location", loc)
	if content, _ := preference(x.r.Header); !content {
		h.Set("DataServiceId", loc)
		x.noContent()
		return
	}
	x.json(http.StatusCreated, odata.AppendEntity(nil, x.ctx(table), stored, nil))
}

// writeEntity answers PUT (replace, or insert-or-replace without If-Match)
// and MERGE (merge, or insert-or-merge): 204 with the new ETag, or 200 with
// the entity as stored after Prefer: return-content (F-PREFER).
func (x *exchange) writeEntity(res resource, method string) {
	m, err := ifMatch(x.r.Header)
	if err != nil {
		x.fail(err)
		return
	}
	content := x.applied == "return-content"
	if err := x.format.requireJSON(); content && err != nil {
		x.fail(err)
		return
	}
	body, err := x.readBody()
	if err != nil {
		x.fail(err)
		return
	}
	e, err := decodeForKeys(body, res.pk, res.rk)
	if err != nil {
		x.fail(err)
		return
	}
	op := store.Op{Entity: e, IfMatch: m, Kind: writeKind(method, m)}
	stored, err := x.h.store.Apply(res.table, op)
	if err != nil {
		x.fail(err)
		return
	}
	x.w.Header().Set("ETag", odata.ETag(stored.Timestamp))
	if content {
		x.json(http.StatusOK, odata.AppendEntity(nil, x.ctx(res.table), stored, nil))
		return
	}
	x.noContent()
}

// writeKind maps a verb and If-Match to the operation (F-IF-MATCH).
func writeKind(method string, m store.Match) store.Kind {
	upsert := m.Kind == store.MatchNone
	switch {
	case method == "MERGE" && upsert:
		return store.InsertOrMerge
	case method == "MERGE":
		return store.Merge
	case upsert:
		return store.InsertOrReplace
	}
	return store.Replace
}

// deleteEntity answers DELETE t(…): If-Match is required (F-DELETE-IF-MATCH).
func (x *exchange) deleteEntity(res resource) {
	m, err := ifMatch(x.r.Header)
	if err != nil {
		x.fail(err)
		return
	}
	if _, err := x.h.store.Apply(res.table, store.Op{Kind: store.Delete, Entity: &entity.Entity{PartitionKey: res.pk, RowKey: res.rk}, IfMatch: m}); err != nil {
		x.fail(err)
		return
	}
	x.noContent()
}

// decodeForKeys decodes an update or merge body addressed by URL keys: keys
// the body leaves out come from the URL; keys it names must equal the URL's.
func decodeForKeys(body []byte, pk, rk string) (*entity.Entity, *tableerr.Error) {
	d, err := odata.DecodeDraft(body)
	if err != nil {
		return nil, err
	}
	var havePK, haveRK bool
	for _, f := range d.Fields {
		switch f.Name {
		case entity.PartitionKey:
			havePK = true
			if f.Err == nil && !f.Null && f.Value.Type() == edm.String && f.Value.Str() != pk {
				return nil, tableerr.New(tableerr.InvalidInput)
			}
		case entity.RowKey:
			haveRK = true
			if f.Err == nil && !f.Null && f.Value.Type() == edm.String && f.Value.Str() != rk {
				return nil, tableerr.New(tableerr.InvalidInput)
			}
		}
	}
	if !havePK {
		d.Fields = append(d.Fields, entity.Field{Name: entity.PartitionKey, Value: edm.StringValue(pk)})
	}
	if !haveRK {
		d.Fields = append(d.Fields, entity.Field{Name: entity.RowKey, Value: edm.StringValue(rk)})
	}
	return entity.Build(d)
}
