package rest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

// A Shared Key signature covers the comp the request is routed by: a
// signature made for one request (reading an ACL) does not authorize
// another (reading or inserting entities) whose query differs only in how
// it spells comp. A comp named twice is refused before the signature is
// looked at (F-QUERY-COMP-TWICE).
func TestSignatureCoversTheRoutedComp(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	st.CreateTable("secret")
	e := &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "V", Value: edm.StringValue("hidden")}}}
	if _, err := st.Apply("secret", store.Op{Kind: store.Insert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	h := New(Options{Store: st, Credentials: WellKnown(), Clock: time.Now})
	date := time.Now().UTC().Format(http.TimeFormat)
	send := func(method, target, sts string) *httptest.ResponseRecorder {
		var body *strings.Reader
		if method == "POST" {
			body = strings.NewReader(`{"PartitionKey":"p","RowKey":"planted"}`)
		} else {
			body = strings.NewReader("")
		}
		req := httptest.NewRequest(method, target, body)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-ms-date", date)
		req.Header.Set("Authorization", sharedKey(t, sts))
		rec := httptest.NewRecorder()
		serve(h, rec, req)
		return rec
	}
	getACL := "GET\n\napplication/json\n" + date + "\n/devstoreaccount1/devstoreaccount1/secret?comp=acl"
	postACL := "POST\n\napplication/json\n" + date + "\n/devstoreaccount1/devstoreaccount1/secret?comp=acl"
	postX := "POST\n\napplication/json\n" + date + "\n/devstoreaccount1/devstoreaccount1/secret?comp=x"
	if rec := send("GET", "/devstoreaccount1/secret?comp=acl", getACL); rec.Code != 200 {
		t.Fatalf("the signed request itself: %d %s", rec.Code, rec.Body)
	}
	for _, c := range []struct {
		method, target, sts string
		status              int
		code                string
	}{
		// comp twice: which one routes and which one is signed is ambiguous.
		{"GET", "/devstoreaccount1/secret?comp=x;y&comp=acl", getACL, 400, "InvalidQueryParameterValue"},
		{"POST", "/devstoreaccount1/secret?comp=x;y&comp=acl", postACL, 400, "InvalidQueryParameterValue"},
		{"GET", "/devstoreaccount1/secret?comp=acl&co%6Dp=x", getACL, 400, "InvalidQueryParameterValue"},
		// Signed for the first comp: the refusal is the whole answer, the
		// insert is not run after it.
		{"POST", "/devstoreaccount1/secret?comp=x&comp=acl", postX, 400, "InvalidQueryParameterValue"},
		// One comp, spelled so that another parser would skip it: signed
		// as the handler reads it, so the ACL's signature does not fit.
		{"GET", "/devstoreaccount1/secret?comp=x;y", getACL, 403, "AuthenticationFailed"},
		{"POST", "/devstoreaccount1/secret?comp=x;y", postACL, 403, "AuthenticationFailed"},
	} {
		rec := send(c.method, c.target, c.sts)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), `"code":"`+c.code+`"`) || strings.Contains(rec.Body.String(), "hidden") {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.target, rec.Code, rec.Body, c.status, c.code)
		}
	}
	if _, err := st.Get("secret", "p", "planted"); err == nil {
		t.Error("a refused request inserted an entity")
	}
	// The comp signed is the one decoded: an escaped name or value is
	// signed as read.
	sts := "GET\n\napplication/json\n" + date + "\n/devstoreaccount1/devstoreaccount1/secret?comp=acl"
	if rec := send("GET", "/devstoreaccount1/secret?co%6Dp=%61cl", sts); rec.Code != 200 {
		t.Errorf("escaped comp: %d %s", rec.Code, rec.Body)
	}
}
