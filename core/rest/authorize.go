package rest

import (
	"net/url"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/mediatype"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/sas"
	"github.com/tableplay/tableplay/core/tableerr"
)

// authorize is the gate of a top-level request: it authenticates the
// request (once), then judges the operation with allow.
func (x *exchange) authorize(o op.Operation) *tableerr.Error {
	if x.secondary && (o.Kind.Changes() || o.Kind == 0 && x.r.Method != "GET" && x.r.Method != "HEAD") {
		// The secondary endpoint only reads (F-STATS-SECONDARY).
		return tableerr.New(tableerr.AuthorizationFailure)
	}
	if !x.authenticated {
		x.authenticated = true
		if err := x.authenticate(); err != nil {
			return err
		}
	}
	return x.allow(o)
}

// authenticate checks a request's credentials: a Shared Key signature, or
// a shared access signature (whose grant is kept for allow), or none where
// the host lets unsigned requests in.
func (x *exchange) authenticate() *tableerr.Error {
	r := &x.r
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		g, err := x.bearer(strings.TrimSpace(token))
		x.token = g
		return err
	}
	if r.Header.Get("Authorization") != "" {
		path := r.URL.EscapedPath()
		err := x.h.creds.sharedKey(r, path, x.query, x.now)
		if primary, ok := strings.CutPrefix(path, "/"+x.h.creds.Account+secondarySuffix); err != nil && x.secondary && ok && strings.HasPrefix(primary, "/"+x.h.creds.Account+"/") {
			// A client that signs the primary's URL and then sends it to
			// the secondary (the Python SDK path-style: signed for
			// /{account}/, sent to /{account}-secondary/{account}/), as it
			// does host-style, where only the host changes (F-STATS-SECONDARY).
			err = x.h.creds.sharedKey(r, primary, x.query, x.now)
		}
		return err
	}
	tok, ok, err := sas.Parse(x.query)
	if err != nil {
		return err
	}
	if !ok {
		if x.h.creds.AllowUnsigned {
			x.anonymous = true
			return nil
		}
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	// Only the connection says whether it is secure: an absolute-form
	// request target ("GET https://…") is text the client chose.
	secure := r.TLS
	g, err := x.h.creds.verifySAS(tok, x.now, secure, r.RemoteAddr, x.h.policy)
	if err != nil {
		return err
	}
	x.grant = g
	return nil
}

// allow decides whether the request's credentials allow an operation: a
// top-level request or, judged the same way, one part of a $batch. Shared
// Key allows everything; a shared access signature allows what
// grant.allow says.
func (x *exchange) allow(o op.Operation) *tableerr.Error {
	if x.anonymous && !x.h.creds.TrustUnsigned {
		return x.allowUnsigned(o)
	}
	if x.token != nil {
		return x.token.allow(o)
	}
	if x.grant == nil {
		return nil
	}
	return x.grant.allow(o)
}

// allowUnsigned limits what an unsigned request may do where unsigned
// requests are let in (the native server's --allow-anonymous): nothing that
// changes who may do what (service properties with their CORS rules, table
// ACLs), and no change a page on another site could make the browser send.
func (x *exchange) allowUnsigned(o op.Operation) *tableerr.Error {
	switch {
	case o.Kind.Permission().Policy:
		return tableerr.WithMessage(tableerr.AuthorizationFailure,
			"Unsigned requests may not change service properties or table ACLs: sign the request with the account key.")
	case o.Kind.Changes() && x.crossSite():
		return tableerr.WithMessage(tableerr.AuthorizationFailure,
			"An unsigned write must not be one another site can send without a CORS preflight: send Content-Type: application/json, or sign the request.")
	}
	return nil
}

// crossSite reports whether a request may come from a page on another site
// that the account's CORS rules do not admit: a POST a form or a
// preflight-free fetch can send (Content-Type absent, text/plain,
// application/x-www-form-urlencoded or multipart/form-data), or a request
// the browser marks as cross-site (Sec-Fetch-Site) or whose Origin is not
// this server's.
func (x *exchange) crossSite() bool {
	r := &x.r
	if r.Method == "POST" && r.Header.Get("X-HTTP-Method") == "" {
		mt, _, ok := mediatype.Parse(r.Header.Get("Content-Type"))
		switch {
		case r.Header.Get("Content-Type") == "", !ok,
			mt == "text/plain", mt == "application/x-www-form-urlencoded", mt == "multipart/form-data":
			return true
		}
	}
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	foreign := site == "cross-site" || site == "same-site"
	if origin != "" && origin != "null" {
		if u, err := url.Parse(origin); err != nil || !strings.EqualFold(u.Host, r.Host) {
			foreign = true
		}
	} else if origin == "null" {
		foreign = true
	}
	if !foreign {
		return false
	}
	_, admitted := corsRule(x.h.store.Cors(), origin, r.Method, nil)
	return origin == "" || !admitted
}

// allow decides whether a verified SAS grants an operation, by the
// permission its row names (the docs' tables of permissions by operation):
// a service SAS reaches entities of its table only, inside its key range,
// with the row's service letters (r query, a add, u update, d delete;
// upserts need a and u); an account SAS needs the row's resource type (s
// service, c tables, o entities) and its account letters. A batch is judged
// part by part; table ACLs need the account key.
func (g *grant) allow(o op.Operation) *tableerr.Error {
	p := o.Kind.Permission()
	return g.judge(&p, o)
}

// judge is allow for the permission p.
func (g *grant) judge(p *op.Permission, o op.Operation) *tableerr.Error {
	has := func(letters string) bool {
		for _, l := range letters {
			if !strings.ContainsRune(g.perms, l) {
				return false
			}
		}
		return true
	}
	need := func(ok bool) *tableerr.Error {
		if ok {
			return nil
		}
		return tableerr.New(tableerr.AuthorizationPermissionMismatch)
	}
	switch {
	case p.ByParts:
		return nil
	case p.ResourceType == 0:
		return tableerr.New(tableerr.AuthorizationFailure) // the account key only
	}
	if g.account {
		if strings.IndexByte(g.resourceTypes, p.ResourceType) < 0 {
			return tableerr.New(tableerr.AuthorizationResourceTypeMismatch)
		}
		if p.AnyOf {
			return need(strings.ContainsAny(g.perms, p.Account))
		}
		return need(has(p.Account))
	}
	// A service SAS: entities of one table.
	if p.Service == "" || !strings.EqualFold(o.Table, g.table) {
		return tableerr.New(tableerr.AuthorizationFailure)
	}
	if pk, rk, ok := o.Keys(); ok && !g.inRange(pk, rk) {
		return tableerr.New(tableerr.AuthorizationFailure)
	}
	return need(has(p.Service))
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
