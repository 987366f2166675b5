package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// anonymousServer is the native server's --allow-anonymous: unsigned
// requests in, with the limits that keep other sites out.
func anonymousServer(t *testing.T, trust bool) (*httptest.Server, *store.Store) {
	t.Helper()
	st := store.New(store.Options{Clock: time.Now})
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	creds.TrustUnsigned = trust
	srv := httptest.NewServer(resthttp.New(rest.New(rest.Options{Store: st, Credentials: creds, Clock: time.Now})))
	t.Cleanup(srv.Close)
	return srv, st
}

func send(t *testing.T, srv *httptest.Server, req *http.Request) *http.Response {
	t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func createTableRequest(srv *httptest.Server, name, contentType string, headers ...string) *http.Request {
	req, _ := http.NewRequest("POST", srv.URL+"/"+rest.WellKnownAccount+"/Tables", strings.NewReader(`{"TableName":"`+name+`"}`))
	req.Header.Set("Accept", "application/json;odata=nometadata")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req
}

// With unsigned requests allowed, a write a page on another site could send
// without a CORS preflight is refused: a form-shaped POST (text/plain,
// urlencoded, multipart/form-data or no Content-Type), or a request the
// browser marks as cross-site. Reads and JSON writes from curl still work;
// signed requests are not limited.
func TestAnonymousCrossSiteWritesRefused(t *testing.T) {
	srv, st := anonymousServer(t, false)
	for i, tc := range []struct {
		name        string
		contentType string
		headers     []string
	}{
		{"text/plain", "text/plain;charset=UTF-8", nil},
		{"urlencoded", "application/x-www-form-urlencoded", nil},
		{"form-data", "multipart/form-data; boundary=x", nil},
		{"no Content-Type", "", nil},
		{"JSON marked cross-site", "application/json", []string{"Sec-Fetch-Site", "cross-site"}},
		{"JSON from another origin", "application/json", []string{"Origin", "http://evil.example"}},
	} {
		name := "forged" + string(rune('a'+i))
		resp := send(t, srv, createTableRequest(srv, name, tc.contentType, tc.headers...))
		if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthorizationFailure" {
			t.Errorf("%s: %d %s, want 403 AuthorizationFailure", tc.name, resp.StatusCode, resp.Header.Get("x-ms-error-code"))
		}
		if _, err := st.GetTable(name); err == nil {
			t.Errorf("%s: the table was created", tc.name)
		}
	}
	if resp := send(t, srv, createTableRequest(srv, "curl", "application/json")); resp.StatusCode != 201 {
		t.Errorf("an unsigned JSON create (curl): %d", resp.StatusCode)
	}
	if resp := send(t, srv, createTableRequest(srv, "sameorigin", "application/json", "Sec-Fetch-Site", "same-origin", "Origin", srv.URL)); resp.StatusCode != 201 {
		t.Errorf("an unsigned JSON create from the server's own page: %d", resp.StatusCode)
	}
	if resp := send(t, srv, signed(createTableRequest(srv, "signed", "text/plain", "Sec-Fetch-Site", "cross-site"))); resp.StatusCode != 201 {
		t.Errorf("a signed text/plain create: %d", resp.StatusCode)
	}
	// The in-page engine trusts its own page.
	page, _ := anonymousServer(t, true)
	if resp := send(t, page, createTableRequest(page, "inpage", "text/plain;charset=UTF-8")); resp.StatusCode != 201 {
		t.Errorf("the in-page engine, text/plain: %d", resp.StatusCode)
	}
}

// Unsigned requests cannot change the service properties (CORS rules among
// them) or a table's ACL; signed ones can.
func TestAnonymousCannotChangePropertiesOrACLs(t *testing.T) {
	srv, st := anonymousServer(t, false)
	st.CreateTable("guarded")
	props := `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET,POST,PUT,DELETE,MERGE</AllowedMethods><AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`
	acl := `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>all</Id><AccessPolicy><Permission>raud</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`
	put := func(path, body string) *http.Request {
		req, _ := http.NewRequest("PUT", srv.URL+"/"+rest.WellKnownAccount+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/xml")
		return req
	}
	if resp := send(t, srv, put("/?restype=service&comp=properties", props)); resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthorizationFailure" {
		t.Errorf("unsigned set properties: %d %s", resp.StatusCode, resp.Header.Get("x-ms-error-code"))
	}
	if len(st.Properties().Cors) != 0 {
		t.Errorf("CORS rules changed: %+v", st.Properties().Cors)
	}
	if resp := send(t, srv, put("/guarded?comp=acl", acl)); resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthorizationFailure" {
		t.Errorf("unsigned set ACL: %d %s", resp.StatusCode, resp.Header.Get("x-ms-error-code"))
	}
	if got, _ := st.ACL("guarded"); len(got) != 0 {
		t.Errorf("ACL changed: %+v", got)
	}
	if resp := send(t, srv, signed(put("/?restype=service&comp=properties", props))); resp.StatusCode != 202 {
		t.Errorf("signed set properties: %d", resp.StatusCode)
	}
	if resp := send(t, srv, signed(put("/guarded?comp=acl", acl))); resp.StatusCode != 204 {
		t.Errorf("signed set ACL: %d", resp.StatusCode)
	}
}
