package rest

import (
	"net/http"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// access is what a request (or a batch part) does, for SAS authorization.
type access struct {
	service  bool   // service properties or stats
	write    bool   // with service: set properties
	tableOp  string // "list", "create", "delete", "get" for table operations
	acl      bool
	kind     store.Kind // entity writes
	read     bool       // entity reads and queries
	table    string
	pk, rk   string
	haveKeys bool
}

// accessOf classifies a top-level request.
func accessOf(res resource, method string) access {
	switch res.kind {
	case resService:
		return access{service: true, write: method == http.MethodPut}
	case resTables:
		if method == http.MethodPost {
			return access{tableOp: "create"}
		}
		return access{tableOp: "list"}
	case resTable:
		if method == http.MethodDelete {
			return access{tableOp: "delete", table: res.table}
		}
		return access{tableOp: "get", table: res.table}
	case resEntities:
		if method == http.MethodPost {
			return access{kind: store.Insert, table: res.table}
		}
		return access{read: true, table: res.table}
	case resEntity:
		a := access{table: res.table, pk: res.pk, rk: res.rk, haveKeys: true}
		switch method {
		case http.MethodGet:
			a.read = true
		case http.MethodDelete:
			a.kind = store.Delete
		case http.MethodPut:
			a.kind = store.Replace // upgraded to an upsert by the caller when If-Match is absent
		default:
			a.kind = store.Merge
		}
		return a
	}
	return access{}
}

// allow decides whether a verified SAS grants an access (the docs' tables of
// permissions by operation): a service SAS reaches entities of its table
// only (r query, a add, u update, d delete; upserts need a and u) inside its
// key range; an account SAS needs the resource type (s service, c tables,
// o entities) and the permission (l list, c/w create, d delete, r read,
// a add, u update, w write for service properties).
func (g *grant) allow(a access) *tableerr.Error {
	has := func(letters string) bool {
		for _, l := range letters {
			if !strings.ContainsRune(g.perms, l) {
				return false
			}
		}
		return true
	}
	hasAny := func(letters string) bool { return strings.ContainsAny(g.perms, letters) }
	need := func(ok bool) *tableerr.Error {
		if ok {
			return nil
		}
		return tableerr.New(tableerr.AuthorizationPermissionMismatch)
	}
	if a.acl {
		return tableerr.New(tableerr.AuthorizationFailure) // table ACLs need the account key
	}
	if g.account {
		rt := func(t string) *tableerr.Error {
			if !strings.Contains(g.resourceTypes, t) {
				return tableerr.New(tableerr.AuthorizationResourceTypeMismatch)
			}
			return nil
		}
		switch {
		case a.service:
			if err := rt("s"); err != nil {
				return err
			}
			if a.write {
				return need(has("w"))
			}
			return need(has("r"))
		case a.tableOp != "":
			if err := rt("c"); err != nil {
				return err
			}
			switch a.tableOp {
			case "create":
				return need(hasAny("acw"))
			case "delete":
				return need(has("d"))
			}
			return need(has("l"))
		}
		if err := rt("o"); err != nil {
			return err
		}
		return need(entityPermission(a, has))
	}
	// A service SAS: entities of one table.
	if a.service || a.tableOp != "" || !strings.EqualFold(a.table, g.table) {
		return tableerr.New(tableerr.AuthorizationFailure)
	}
	if a.haveKeys && !g.inRange(a.pk, a.rk) {
		return tableerr.New(tableerr.AuthorizationFailure)
	}
	return need(entityPermission(a, has))
}

func entityPermission(a access, has func(string) bool) bool {
	if a.read {
		return has("r")
	}
	switch a.kind {
	case store.Insert:
		return has("a")
	case store.Replace, store.Merge:
		return has("u")
	case store.InsertOrReplace, store.InsertOrMerge:
		return has("au")
	case store.Delete:
		return has("d")
	}
	return false
}

// inRange reports whether (pk, rk) lies in the SAS key range
// [(spk, srk), (epk, erk)]; a missing bound is open.
func (g *grant) inRange(pk, rk string) bool {
	if g.startPK != "" {
		c := edm.CompareStrings(pk, g.startPK)
		if c < 0 || c == 0 && g.startRK != "" && edm.CompareStrings(rk, g.startRK) < 0 {
			return false
		}
	}
	if g.endPK != "" {
		c := edm.CompareStrings(pk, g.endPK)
		if c > 0 || c == 0 && g.endRK != "" && edm.CompareStrings(rk, g.endRK) > 0 {
			return false
		}
	}
	return true
}

// within is the query predicate of a ranged service SAS: queries return only
// the entities inside the range.
func (g *grant) within() func(*entity.Entity) bool {
	if g == nil || g.account || g.startPK == "" && g.endPK == "" {
		return nil
	}
	return func(e *entity.Entity) bool { return g.inRange(e.PartitionKey, e.RowKey) }
}

// policy looks a stored access policy up in the store, for verifySAS.
func (h *Handler) policy(table, id string) (string, *edm.Ticks, *edm.Ticks, bool) {
	acl, err := h.store.ACL(table)
	if err != nil {
		return "", nil, nil, false
	}
	for _, p := range acl {
		if p.ID == id {
			return p.Permission, p.Start, p.Expiry, true
		}
	}
	return "", nil, nil, false
}
