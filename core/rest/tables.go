package rest

import (
	"net/http"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/store"
)

// queryTables answers GET Tables with $filter, $top and NextTableName.
func (x *exchange) queryTables() {
	if err := x.format.requireJSON(); err != nil {
		x.fail(err)
		return
	}
	f, top, err := x.filterAndTop()
	if err != nil {
		x.fail(err)
		return
	}
	page, err := x.h.store.ListTables(store.TableQuery{Filter: f, Top: top, NextTableName: x.query.Get("NextTableName")})
	if err != nil {
		x.fail(err)
		return
	}
	if page.NextTableName != "" {
		x.w.Header().Set("x-ms-continuation-NextTableName", page.NextTableName)
	}
	x.json(http.StatusOK, odata.AppendTables(nil, x.ctx(""), page.Names))
}

// createTable answers POST Tables: 201 with the table, or 204 with
// Prefer: return-no-content (F-PREFER).
func (x *exchange) createTable() {
	body, ok := x.jsonBody()
	if !ok {
		return
	}
	name, err := odata.DecodeTableName(body)
	if err != nil {
		x.fail(err)
		return
	}
	if name, err = x.h.store.CreateTable(name); err != nil {
		x.fail(err)
		return
	}
	loc := x.base + "/" + odata.TablePath(name)
	x.w.Header().Set("Location", loc)
	if content, _ := preference(x.r.Header); !content {
		x.w.Header().Set("DataServiceId", loc)
		x.noContent()
		return
	}
	x.json(http.StatusCreated, odata.AppendTable(nil, x.ctx(""), name))
}

// getTable answers GET Tables('name'): 200 with the table, or 404
// ResourceNotFound (F-NOT-FOUND).
func (x *exchange) getTable(name string) {
	if err := x.format.requireJSON(); err != nil {
		x.fail(err)
		return
	}
	stored, err := x.h.store.GetTable(name)
	if err != nil {
		x.fail(err)
		return
	}
	x.json(http.StatusOK, odata.AppendTable(nil, x.ctx(""), stored))
}

// deleteTable answers DELETE Tables('name'): 204, or 404 ResourceNotFound.
func (x *exchange) deleteTable(name string) {
	if err := x.h.store.DeleteTable(name); err != nil {
		x.fail(err)
		return
	}
	x.noContent()
}
