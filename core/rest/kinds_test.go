package rest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The tests here walk op's table of kinds: every request is built from a
// row alone (its resource, verb, If-Match and body shape), and what the
// layer does with it (routing, the answer, Prefer, the SAS judgment) is
// checked against the row. A row added in core/op is covered without a
// line here; a new resource, body or answer shape fails until this file
// can build and check it.

const kindsTable = "kinds"

// kindTarget is the path below the account and the query of a resource.
func kindTarget(t *testing.T, r op.Resource) (string, url.Values) {
	t.Helper()
	switch r {
	case op.ServiceProperties:
		return "", url.Values{"restype": {"service"}, "comp": {"properties"}}
	case op.ServiceStats:
		return "", url.Values{"restype": {"service"}, "comp": {"stats"}}
	case op.TableList:
		return "Tables", nil
	case op.OneTable:
		return "Tables('" + kindsTable + "')", nil
	case op.BatchResource:
		return "$batch", nil
	case op.Entities:
		return kindsTable, nil
	case op.OneEntity:
		return kindsTable + "(PartitionKey='p',RowKey='r')", nil
	case op.TableACL:
		return kindsTable, url.Values{"comp": {"acl"}}
	}
	t.Fatalf("no request for resource %d: add it to kindTarget", r)
	return "", nil
}

// kindBody is a body of a shape, and its Content-Type.
func kindBody(t *testing.T, b op.Body) (string, string) {
	t.Helper()
	switch b {
	case op.NoBody:
		return "", ""
	case op.TableNameBody:
		return `{"TableName":"kindsnew"}`, "application/json"
	case op.EntityBody:
		return `{"PartitionKey":"p","RowKey":"new","N":1}`, "application/json"
	case op.UpdateBody:
		return `{"PartitionKey":"p","RowKey":"r","N":2}`, "application/json"
	case op.BatchBody:
		part := "POST http://127.0.0.1/devstoreaccount1/" + kindsTable + " HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n" +
			"Content-Type: application/json\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"b\"}\r\n"
		body := "--batch_k\r\nContent-Type: multipart/mixed; boundary=changeset_k\r\n\r\n--changeset_k\r\n" +
			"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" + part + "--changeset_k--\r\n--batch_k--\r\n"
		return body, "multipart/mixed; boundary=batch_k"
	case op.ACLBody:
		return `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>all</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`, "application/xml"
	case op.PropertiesBody:
		return `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties></StorageServiceProperties>`, "application/xml"
	}
	t.Fatalf("no body of shape %d: add it to kindBody", b)
	return "", ""
}

// kindRequest is the request for k, built from its row (to the secondary
// endpoint for the replication statistics), with Prefer when not "".
func kindRequest(t *testing.T, k op.Kind, prefer string) *http.Request {
	t.Helper()
	s := k.Spec()
	path, q := kindTarget(t, s.Resource)
	account := WellKnownAccount
	if s.Answer == op.StatsDocument {
		account += secondarySuffix // statistics exist on the secondary only (F-STATS-SECONDARY)
	}
	target := "/" + account + "/" + path
	if enc := q.Encode(); enc != "" {
		target += "?" + enc
	}
	body, contentType := kindBody(t, s.Body)
	r := httptest.NewRequest(s.Method.String(), target, strings.NewReader(body))
	r.Header.Set("Accept", "application/json;odata=minimalmetadata")
	r.Header.Set("x-ms-version", "2019-02-02")
	r.Header.Set("DataServiceVersion", "3.0")
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if s.Condition == op.Conditional {
		r.Header.Set("If-Match", "*")
	}
	if prefer != "" {
		r.Header.Set("Prefer", prefer)
	}
	return r
}

// kindsStore holds the table and the entity the requests address.
func kindsStore(t *testing.T) *store.Store {
	t.Helper()
	st := store.New(store.Options{Clock: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }})
	if _, err := st.CreateTable(kindsTable); err != nil {
		t.Fatal(err)
	}
	e := &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "N", Value: edm.Int32Value(1)}}}
	if _, err := st.Apply(kindsTable, store.Op{Kind: store.Insert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestEveryKindIsRoutedByItsRow: the verb and resource of a row, with
// If-Match for a conditional kind and without it for an upsert, name that
// kind and no other.
func TestEveryKindIsRoutedByItsRow(t *testing.T) {
	for _, k := range op.Kinds() {
		r := kindRequest(t, k, "")
		res, err := parseResource(strings.SplitN(r.URL.EscapedPath(), "/", 3)[2])
		if err != nil {
			t.Fatalf("%v: %v", k, err.Code)
		}
		got := kindOf(res, r.Method, r.URL.Query())
		if r.Header.Get("If-Match") == "" && got.Spec().Upsert != 0 {
			got = got.Spec().Upsert
		}
		if got != k {
			t.Errorf("%s %s is routed to %v, not %v", r.Method, r.URL, got, k)
		}
	}
}

// kindAnswer is what an answer of a shape looks like: its status, its
// Content-Type's start, and header fields it must carry.
func kindAnswer(t *testing.T, a op.Answer) (status int, contentType string, headers []string) {
	t.Helper()
	switch a {
	case op.NoContent:
		return 204, "", nil
	case op.TableCreated:
		return 201, "application/json", []string{"Location"}
	case op.TableRead, op.TablePage, op.EntityPage:
		return 200, "application/json", nil
	case op.EntityRead:
		return 200, "application/json", []string{"ETag"}
	case op.EntityCreated:
		return 201, "application/json", []string{"ETag", "Location"}
	case op.EntityWritten:
		return 204, "", []string{"ETag"}
	case op.BatchAnswer:
		return 202, "multipart/mixed", nil
	case op.ACLDocument, op.PropertiesDocument, op.StatsDocument:
		return 200, "application/xml", nil
	case op.PropertiesSet:
		return 202, "", nil
	}
	t.Fatalf("no expectation for answer shape %d: add it to kindAnswer", a)
	return 0, "", nil
}

// TestEveryKindAnswersInItsRowsShape: each row's request is decoded (its
// body by the row's body shape) and answered in the row's answer shape.
func TestEveryKindAnswersInItsRowsShape(t *testing.T) {
	for _, k := range op.Kinds() {
		h := testHandler(kindsStore(t))
		rec := httptest.NewRecorder()
		serve(h, rec, kindRequest(t, k, ""))
		status, contentType, headers := kindAnswer(t, k.Spec().Answer)
		if rec.Code != status || !strings.HasPrefix(rec.Header().Get("Content-Type"), contentType) ||
			contentType == "" && rec.Body.Len() != 0 {
			t.Errorf("%v: %d %q %q; want %d %q", k, rec.Code, rec.Header().Get("Content-Type"), rec.Body, status, contentType)
		}
		for _, name := range headers {
			if rec.Header().Get(name) == "" {
				t.Errorf("%v: no %s", k, name)
			}
		}
	}
}

// TestEveryKindHonoursPreferAsItsRowSays: Preference-Applied is echoed
// exactly for the rows that honour Prefer, and never with comp.
func TestEveryKindHonoursPreferAsItsRowSays(t *testing.T) {
	for _, k := range op.Kinds() {
		h := testHandler(kindsStore(t))
		rec := httptest.NewRecorder()
		serve(h, rec, kindRequest(t, k, "return-content"))
		if got := rec.Header().Get("Preference-Applied") == "return-content"; got != k.Spec().Prefer {
			t.Errorf("%v: Preference-Applied %q (%d %s); the row says Prefer %v", k, rec.Header().Get("Preference-Applied"), rec.Code, rec.Body, k.Spec().Prefer)
		}
	}
	if !honoursPrefer(op.Insert, nil) || honoursPrefer(op.Insert, map[string][]string{"comp": {"x"}}) || honoursPrefer(op.Kind(255), nil) {
		t.Error("an operation that honours Prefer does not, or does with comp, or a kind without a row does")
	}
}

// TestEveryKindIsJudgedByItsRowsPermission: a SAS granting exactly the
// letters and resource type of a row's permission allows the kind; one
// letter fewer, another resource type, another table or a permission only
// the account key has refuses it.
func TestEveryKindIsJudgedByItsRowsPermission(t *testing.T) {
	o := func(k op.Kind) op.Operation {
		return op.Operation{Kind: k, Table: kindsTable, PartitionKey: "p", RowKey: "r"}
	}
	code := func(err *tableerr.Error) tableerr.Code {
		if err == nil {
			return ""
		}
		return err.Code
	}
	all := &grant{account: true, resourceTypes: "sco", perms: "rwdlacu"}
	for _, k := range op.Kinds() {
		p := k.Spec().Permission
		switch {
		case p.ByParts:
			if err := (&grant{account: true, resourceTypes: "s"}).allow(o(k)); err != nil {
				t.Errorf("%v is judged part by part, yet refused as a whole: %v", k, err.Code)
			}
			continue
		case p.ResourceType == 0:
			for _, g := range []*grant{all, {table: kindsTable, perms: "raud"}} {
				if c := code(g.allow(o(k))); c != tableerr.AuthorizationFailure {
					t.Errorf("%v needs the account key, yet a SAS gets %q", k, c)
				}
			}
			continue
		}
		rt := string(p.ResourceType)
		if err := (&grant{account: true, resourceTypes: rt, perms: p.Account}).allow(o(k)); err != nil {
			t.Errorf("%v: srt=%s sp=%s refused: %v", k, rt, p.Account, err.Code)
		}
		other := strings.NewReplacer(rt, "").Replace("sco")
		if c := code((&grant{account: true, resourceTypes: other, perms: "rwdlacu"}).allow(o(k))); c != tableerr.AuthorizationResourceTypeMismatch {
			t.Errorf("%v: srt=%s gets %q", k, other, c)
		}
		for _, l := range p.Account {
			perms := strings.ReplaceAll(p.Account, string(l), "")
			if p.AnyOf {
				perms = string(l)
			}
			err := (&grant{account: true, resourceTypes: rt, perms: perms}).allow(o(k))
			if p.AnyOf && err != nil || !p.AnyOf && code(err) != tableerr.AuthorizationPermissionMismatch {
				t.Errorf("%v: sp=%s gets %q (any of %s: %v)", k, perms, code(err), p.Account, p.AnyOf)
			}
		}
		service := &grant{table: kindsTable, perms: "raud"}
		if p.Service == "" {
			if c := code(service.allow(o(k))); c != tableerr.AuthorizationFailure {
				t.Errorf("%v: a service SAS gets %q", k, c)
			}
			continue
		}
		if err := (&grant{table: kindsTable, perms: p.Service}).allow(o(k)); err != nil {
			t.Errorf("%v: a service SAS with sp=%s refused: %v", k, p.Service, err.Code)
		}
		if c := code((&grant{table: "others", perms: p.Service}).allow(o(k))); c != tableerr.AuthorizationFailure {
			t.Errorf("%v: a service SAS for another table gets %q", k, c)
		}
		for _, l := range p.Service {
			perms := strings.ReplaceAll(p.Service, string(l), "")
			if c := code((&grant{table: kindsTable, perms: perms}).allow(o(k))); c != tableerr.AuthorizationPermissionMismatch {
				t.Errorf("%v: a service SAS with sp=%s gets %q", k, perms, c)
			}
		}
	}
	// A row changed in one place: the judgment follows it.
	p := op.Get.Spec().Permission
	p.Service, p.Account = "d", "d"
	g := &grant{table: kindsTable, perms: "r"}
	if g.judge(&p, o(op.Get)) == nil || (&grant{table: kindsTable, perms: "d"}).judge(&p, o(op.Get)) != nil {
		t.Error("the service SAS judgment does not follow the permission")
	}
	if (&grant{account: true, resourceTypes: "o", perms: "d"}).judge(&p, o(op.Get)) != nil {
		t.Error("the account SAS judgment does not follow the permission")
	}
}

// TestUnsignedPolicyChangesFollowTheRow: where unsigned requests are let
// in but not trusted, exactly the rows that change who may do what are
// refused.
func TestUnsignedPolicyChangesFollowTheRow(t *testing.T) {
	for _, k := range op.Kinds() {
		h := testHandler(kindsStore(t))
		h.creds.TrustUnsigned = false
		rec := httptest.NewRecorder()
		serve(h, rec, kindRequest(t, k, ""))
		refused := rec.Code == 403 && strings.Contains(rec.Body.String(), "Unsigned requests may not change")
		if refused != k.Spec().Permission.Policy {
			t.Errorf("%v: %d %s; the row says Policy %v", k, rec.Code, rec.Body, k.Spec().Permission.Policy)
		}
	}
}
