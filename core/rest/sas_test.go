package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/sdktest"
)

// sasClient is an SDK client that authenticates with a SAS URL only.
func (f *fixture) sasClient(t *testing.T, sasURL string) *aztables.Client {
	t.Helper()
	c, err := aztables.NewClientWithNoCredential(sasURL, sdktest.Options(f.tr))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tableSAS signs a service SAS with tableplay's own signer (the SDK signs key
// ranges but leaves them out of its URL, so ranged tokens are made here).
func (f *fixture) tableSAS(t *testing.T, s rest.SAS) string {
	t.Helper()
	if s.Version == "" {
		s.Version = "2019-02-02"
	}
	s.Signature = rest.WellKnown().SignSAS(s)
	return f.srv.URL + "/" + rest.WellKnownAccount + "/" + s.Table + "?" + s.Encode()
}

// sdkTableSAS makes a service SAS URL with the SDK. aztables v1.4.1 joins
// the table name to a path-style endpoint without a slash
// (".../devstoreaccount1sastable?…"); the slash is put back here.
func sdkTableSAS(t *testing.T, c *aztables.Client, table string, p aztables.SASPermissions, now time.Time) string {
	t.Helper()
	u, err := c.GetTableSASURL(p, now.Add(-time.Minute), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(u, "/"+rest.WellKnownAccount+table+"?", "/"+rest.WellKnownAccount+"/"+table+"?", 1)
}

func sasTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

type opResult map[string]int

// tryAll runs one of each entity operation and returns the statuses.
func tryAll(t *testing.T, c *aztables.Client, rk string) opResult {
	t.Helper()
	status := func(err error) int {
		if err == nil {
			return 200
		}
		_, s := errCode(t, err)
		return s
	}
	out := opResult{}
	_, err := c.GetEntity(ctx, "p", "seed", nil)
	out["read"] = status(err)
	_, err = c.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": rk}), nil)
	out["add"] = status(err)
	_, err = c.UpdateEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "seed", "V": 2}), nil)
	out["update"] = status(err)
	_, err = c.UpsertEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "up" + rk}), nil)
	out["upsert"] = status(err)
	_, err = c.DeleteEntity(ctx, "p", "victim"+rk, nil)
	out["delete"] = status(err)
	return out
}

func TestSASPermissions(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "sastable", nil)
	owner := f.svc.NewClient("sastable")
	owner.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "seed"}), nil)
	now := time.Now()
	tests := []struct {
		perms aztables.SASPermissions
		want  opResult
	}{
		{aztables.SASPermissions{Read: true}, opResult{"read": 200, "add": 403, "update": 403, "upsert": 403, "delete": 403}},
		{aztables.SASPermissions{Add: true}, opResult{"read": 403, "add": 200, "update": 403, "upsert": 403, "delete": 403}},
		{aztables.SASPermissions{Update: true}, opResult{"read": 403, "add": 403, "update": 200, "upsert": 403, "delete": 403}},
		{aztables.SASPermissions{Add: true, Update: true}, opResult{"read": 403, "add": 200, "update": 200, "upsert": 200, "delete": 403}},
		{aztables.SASPermissions{Delete: true}, opResult{"read": 403, "add": 403, "update": 403, "upsert": 403, "delete": 200}},
	}
	for i, tt := range tests {
		rk := string(rune('a' + i))
		owner.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "victim" + rk}), nil)
		got := tryAll(t, f.sasClient(t, sdkTableSAS(t, owner, "sastable", tt.perms, now)), rk)
		for op, want := range tt.want {
			if got[op] != want {
				t.Errorf("sp=%s %s: %d, want %d", tt.perms.String(), op, got[op], want)
			}
		}
	}
	// A service SAS reaches its own table's entities only.
	u, _ := url.Parse(sdkTableSAS(t, owner, "sastable", aztables.SASPermissions{Read: true, Add: true, Update: true, Delete: true}, now))
	other := *u
	other.Path = strings.Replace(u.Path, "sastable", "othertable", 1)
	f.svc.CreateTable(ctx, "othertable", nil)
	_, err := f.sasClient(t, other.String()).GetEntity(ctx, "p", "seed", nil)
	wantCode(t, err, "AuthorizationFailure", 403)
}

func TestSASTimesAndSignature(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "times", nil)
	f.svc.NewClient("times").AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "seed"}), nil)
	now := time.Now()
	for _, tc := range []struct {
		name       string
		st, se     time.Time
		tamper     bool
		wantStatus int
	}{
		{"valid", now.Add(-time.Minute), now.Add(time.Hour), false, 200},
		{"expired", now.Add(-2 * time.Hour), now.Add(-time.Hour), false, 403},
		{"not yet valid", now.Add(time.Hour), now.Add(2 * time.Hour), false, 403},
		{"start within the clock-skew tolerance", now.Add(5 * time.Minute), now.Add(time.Hour), false, 200},
		{"tampered signature", now.Add(-time.Minute), now.Add(time.Hour), true, 403},
	} {
		s := rest.SAS{Permissions: "r", Start: sasTime(tc.st), Expiry: sasTime(tc.se), Table: "times"}
		sasURL := f.tableSAS(t, s)
		if tc.tamper {
			sasURL = strings.Replace(sasURL, "sp=r", "sp=raud", 1)
		}
		_, err := f.sasClient(t, sasURL).GetEntity(ctx, "p", "seed", nil)
		got := 200
		if err != nil {
			code, status := errCode(t, err)
			got = status
			if code != "AuthenticationFailed" {
				t.Errorf("%s: code %s", tc.name, code)
			}
		}
		if got != tc.wantStatus {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.wantStatus)
		}
	}
}

func TestSASKeyRanges(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "ranged", nil)
	owner := f.svc.NewClient("ranged")
	for _, pk := range []string{"a", "b", "c"} {
		for _, rk := range []string{"1", "5", "9"} {
			owner.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": pk, "RowKey": rk}), nil)
		}
	}
	now := time.Now()
	// Range (b,5)..(c,5): b/5 b/9 c/1 c/5.
	s := rest.SAS{Permissions: "raud", Start: sasTime(now.Add(-time.Minute)), Expiry: sasTime(now.Add(time.Hour)), Table: "ranged",
		StartPK: "b", StartRK: "5", EndPK: "c", EndRK: "5"}
	c := f.sasClient(t, f.tableSAS(t, s))
	var keys []string
	p := c.NewListEntitiesPager(nil)
	for p.More() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entities {
			var m map[string]any
			jsonUnmarshal(e, &m)
			keys = append(keys, m["PartitionKey"].(string)+"/"+m["RowKey"].(string))
		}
	}
	if strings.Join(keys, ",") != "b/5,b/9,c/1,c/5" {
		t.Errorf("query sees %v", keys)
	}
	for _, tc := range []struct {
		pk, rk string
		inside bool
	}{{"b", "5", true}, {"c", "1", true}, {"b", "1", false}, {"c", "9", false}, {"a", "5", false}} {
		_, err := c.GetEntity(ctx, tc.pk, tc.rk, nil)
		if (err == nil) != tc.inside {
			t.Errorf("get %s/%s: %v", tc.pk, tc.rk, err)
		}
		if !tc.inside {
			if code, status := errCode(t, err); code != "AuthorizationFailure" || status != 403 {
				t.Errorf("get %s/%s: %s %d", tc.pk, tc.rk, code, status)
			}
		}
	}
	_, err := c.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "b", "RowKey": "6"}), nil)
	if err != nil {
		t.Errorf("insert inside: %v", err)
	}
	_, err = c.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "c", "RowKey": "6"}), nil)
	wantCode(t, err, "AuthorizationFailure", 403)
	_, err = c.DeleteEntity(ctx, "a", "1", nil)
	wantCode(t, err, "AuthorizationFailure", 403)
	// A transaction with one operation outside the range fails at its index.
	_, err = c.SubmitTransaction(ctx, []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeUpdateMerge, Entity: marshal(t, map[string]any{"PartitionKey": "c", "RowKey": "1", "X": 1})},
		{ActionType: aztables.TransactionTypeUpdateMerge, Entity: marshal(t, map[string]any{"PartitionKey": "c", "RowKey": "9", "X": 1})},
	}, nil)
	var re *azcore.ResponseError
	if !asResponseError(err, &re) {
		t.Fatalf("transaction: %v", err)
	}
	body, _ := readAndRestore(re.RawResponse)
	if !strings.Contains(string(body), `"code":"AuthorizationFailure"`) || !strings.Contains(string(body), `"value":"1:`) {
		t.Errorf("transaction outside the range:\n%s", body)
	}
}

func TestSASStoredPolicy(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "policies", nil)
	owner := f.svc.NewClient("policies")
	owner.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "seed"}), nil)
	now := time.Now().UTC().Truncate(time.Second)
	_, err := owner.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{{
		ID: to.Ptr("readers"), AccessPolicy: &aztables.AccessPolicy{Start: to.Ptr(now.Add(-time.Hour)), Expiry: to.Ptr(now.Add(time.Hour)), Permission: to.Ptr("r")},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	acl, err := owner.GetAccessPolicy(ctx, nil)
	if err != nil || len(acl.SignedIdentifiers) != 1 || *acl.SignedIdentifiers[0].AccessPolicy.Permission != "r" || !acl.SignedIdentifiers[0].AccessPolicy.Expiry.Equal(now.Add(time.Hour)) {
		t.Fatalf("ACL round trip: %v %+v", err, acl)
	}
	c := f.sasClient(t, f.tableSAS(t, rest.SAS{Table: "policies", Identifier: "readers"}))
	if _, err := c.GetEntity(ctx, "p", "seed", nil); err != nil {
		t.Errorf("through the policy: %v", err)
	}
	_, err = c.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "new"}), nil)
	wantCode(t, err, "AuthorizationPermissionMismatch", 403)
	// A SAS may not repeat what the policy sets.
	_, err = f.sasClient(t, f.tableSAS(t, rest.SAS{Table: "policies", Identifier: "readers", Permissions: "r"})).GetEntity(ctx, "p", "seed", nil)
	wantCode(t, err, "AuthenticationFailed", 403)
	// Revoking the policy revokes every SAS that names it.
	if _, err := owner.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetEntity(ctx, "p", "seed", nil)
	wantCode(t, err, "AuthenticationFailed", 403)
}

func TestAccountSAS(t *testing.T) {
	f := newFixture(t)
	now := time.Now()
	opts := sdktest.Options(f.tr)
	// The SDK's account SAS is for HTTPS only: refused over plain HTTP.
	sdkURL, err := f.svc.GetAccountSASURL(aztables.AccountSASResourceTypes{Container: true}, aztables.AccountSASPermissions{List: true}, now.Add(-time.Minute), now.Add(time.Hour))
	if err != nil || !strings.Contains(sdkURL, "spr=https") {
		t.Fatalf("%v %s", err, sdkURL)
	}
	sdkSvc, _ := aztables.NewServiceClientWithNoCredential(sdkURL, opts)
	_, err = sdkSvc.NewListTablesPager(nil).NextPage(ctx)
	wantCode(t, err, "AuthorizationProtocolMismatch", 403)
	// The same kind of token signed for HTTP too, as tableplay sas makes it.
	mk := func(resourceTypes, perms string) *aztables.ServiceClient {
		s := rest.SAS{Version: "2019-02-02", Services: "t", ResourceTypes: resourceTypes, Permissions: perms, Account: true,
			Start: sasTime(now.Add(-time.Minute)), Expiry: sasTime(now.Add(time.Hour)), Protocol: "https,http"}
		s.Signature = rest.WellKnown().SignSAS(s)
		svc, err := aztables.NewServiceClientWithNoCredential(f.srv.URL+"/"+rest.WellKnownAccount+"/?"+s.Encode(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	tables := mk("c", "wld")
	if _, err := tables.CreateTable(ctx, "viaaccount", nil); err != nil {
		t.Fatalf("create table: %v", err)
	}
	if _, err := tables.NewListTablesPager(nil).NextPage(ctx); err != nil {
		t.Errorf("list tables: %v", err)
	}
	_, err = tables.NewClient("viaaccount").AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "r"}), nil)
	wantCode(t, err, "AuthorizationResourceTypeMismatch", 403)
	entities := mk("o", "ar")
	if _, err := entities.NewClient("viaaccount").AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "r"}), nil); err != nil {
		t.Errorf("add entity: %v", err)
	}
	if _, err := entities.NewClient("viaaccount").GetEntity(ctx, "p", "r", nil); err != nil {
		t.Errorf("read entity: %v", err)
	}
	_, err = entities.NewClient("viaaccount").DeleteEntity(ctx, "p", "r", nil)
	wantCode(t, err, "AuthorizationPermissionMismatch", 403)
	_, err = entities.CreateTable(ctx, "nope", nil)
	wantCode(t, err, "AuthorizationResourceTypeMismatch", 403)
	service := mk("s", "r")
	if _, err := service.GetProperties(ctx, nil); err != nil {
		t.Errorf("get properties: %v", err)
	}
	_, err = service.SetProperties(ctx, aztables.ServiceProperties{}, nil)
	wantCode(t, err, "AuthorizationPermissionMismatch", 403)
	if _, err := mk("s", "w").SetProperties(ctx, aztables.ServiceProperties{}, nil); err != nil {
		t.Errorf("set properties: %v", err)
	}
	// Table ACLs need the account key.
	_, err = mk("sco", "rwdlau").NewClient("viaaccount").GetAccessPolicy(ctx, nil)
	wantCode(t, err, "AuthorizationFailure", 403)
}

func TestSASOverHTTPWhenHTTPSRequired(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "secure", nil)
	now := time.Now()
	s := rest.SAS{Permissions: "r", Expiry: sasTime(now.Add(time.Hour)), Table: "secure", Protocol: "https"}
	_, err := f.sasClient(t, f.tableSAS(t, s)).GetEntity(ctx, "p", "r", nil)
	wantCode(t, err, "AuthorizationProtocolMismatch", 403)
}

func TestPreflightAndCORSHeaders(t *testing.T) {
	f := newFixture(t)
	preflight := func() *http.Response {
		req, _ := http.NewRequest("OPTIONS", f.srv.URL+"/devstoreaccount1/Tables", nil)
		req.Header.Set("Origin", "https://page.example")
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "x-ms-version,x-ms-date,authorization")
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := preflight(); resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no rules: %d %v", resp.StatusCode, resp.Header)
	}
	get := func() *http.Response {
		req, _ := http.NewRequest("GET", f.srv.URL+"/devstoreaccount1/Tables", nil)
		req.Header.Set("Origin", "https://page.example")
		req.Header.Set("Accept", "application/json")
		resp, _ := f.tr.inner.Do(signed(req))
		return resp
	}
	if resp := get(); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no rules, actual request: %d %v", resp.StatusCode, resp.Header)
	}
	_, err := f.svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{{
		AllowedOrigins: to.Ptr("https://page.example"), AllowedMethods: to.Ptr("GET,POST"),
		AllowedHeaders: to.Ptr("x-ms-*,authorization"), ExposedHeaders: to.Ptr("x-ms-request-id"), MaxAgeInSeconds: to.Ptr[int32](600),
	}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := preflight()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "https://page.example" ||
		resp.Header.Get("Access-Control-Allow-Methods") != "GET" || resp.Header.Get("Access-Control-Max-Age") != "600" ||
		resp.Header.Get("Access-Control-Allow-Headers") != "x-ms-version,x-ms-date,authorization" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp = get()
	if resp.Header.Get("Access-Control-Allow-Origin") != "https://page.example" || resp.Header.Get("Access-Control-Expose-Headers") != "x-ms-request-id" {
		t.Errorf("actual request: %v", resp.Header)
	}
	req, _ := http.NewRequest("OPTIONS", f.srv.URL+"/devstoreaccount1/Tables", nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	if resp, _ := f.srv.Client().Do(req); resp.StatusCode != 403 {
		t.Errorf("other origin: %d", resp.StatusCode)
	}
}

// signed signs a request with the well-known key (SharedKeyLite).
func signed(r *http.Request) *http.Request {
	d := time.Now().UTC().Format(http.TimeFormat)
	r.Header.Set("x-ms-date", d)
	r.Header.Set("Authorization", rest.WellKnown().Sign(d, r.URL))
	return r
}
