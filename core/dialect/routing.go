package dialect

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Absent is the answer to an operation of kind k whose endpoint the
// implementation does not serve (F-COSMOS-NO-ACL, F-COSMOS-NO-SERVICE),
// or nil.
func (d *Dialect) Absent(k op.Kind) *tableerr.Error {
	var e profile.Endpoints
	switch k {
	case op.GetACL, op.SetACL:
		e = profile.TableACL
	case op.GetProperties, op.SetProperties:
		e = profile.ServiceProperties
	case op.GetStats:
		e = profile.ServiceStats
	default:
		return nil
	}
	return d.absent(e)
}

// AbsentPreflight is the answer to a CORS preflight where the
// implementation has no CORS (F-COSMOS-NO-CORS), or nil.
func (d *Dialect) AbsentPreflight() *tableerr.Error { return d.absent(profile.CORS) }

func (d *Dialect) absent(e profile.Endpoints) *tableerr.Error {
	if !d.p.Lacks.Has(e) {
		return nil
	}
	code := tableerr.Code(d.p.Absent.Code)
	return &tableerr.Error{Code: code, Status: d.p.Absent.Status, Message: code.Message()}
}

// CheckRequestTableName refuses a table name an entity, query or ACL
// request names that breaks the naming rule (F-TABLE-NAME-ANY-REQUEST);
// Azurite, with rules of its own, answers such a request 404 instead.
func (d *Dialect) CheckRequestTableName(table string) *tableerr.Error {
	if !d.p.IsAzure() && d.em.BodyForms() {
		return nil
	}
	return entity.CheckRequestTableName(d.p.TableNames, table)
}
