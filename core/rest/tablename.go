package rest

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// checkTableName refuses an entity, query or ACL request (a batch part
// too) on a table name that breaks the naming rules as the service refuses
// it: as create-table does, 400 InvalidResourceName or OutOfRangeInput,
// which the SDKs turn into their "table names must be alphanumeric" error,
// not 404 TableNotFound (F-TABLE-NAME-ANY-REQUEST).
func (x *exchange) checkTableName(res resource) *tableerr.Error {
	if res.kind != resEntities && res.kind != resEntity {
		return nil
	}
	if !x.h.prof.IsAzure() && x.h.prof.Emulator.BodyForms() {
		return nil // Azurite answers 404 (its own rules; F-TABLE-NAME-ANY-REQUEST)
	}
	return entity.CheckRequestTableName(x.h.prof.TableNames, res.table)
}
