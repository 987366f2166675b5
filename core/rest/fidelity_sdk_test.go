package rest_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
)

// TestSDKWholeBeforePart: an entity of 127 strings of 32,768 characters
// breaks the string rule 127 times and the 1 MiB entity limit once; the live
// service answers EntityTooLarge (F-SIZE-ORDER).
func TestSDKWholeBeforePart(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.CreateTable(ctx, "sizes", nil); err != nil {
		t.Fatal(err)
	}
	c := f.svc.NewClient("sizes")
	e := map[string]any{"PartitionKey": "p", "RowKey": "r"}
	long := strings.Repeat("x", 32768)
	for i := 0; i < 127; i++ {
		e["p"+strconv.Itoa(i)] = long
	}
	_, err := c.AddEntity(ctx, marshal(t, e), nil)
	wantCode(t, err, "EntityTooLarge", 400)

	one := map[string]any{"PartitionKey": "p", "RowKey": "r", "s": long}
	_, err = c.AddEntity(ctx, marshal(t, one), nil)
	wantCode(t, err, "PropertyValueTooLarge", 400)
}

// TestSDKEmptyFilter: an empty $filter, which the Go SDK sends for a filter
// of "" (and Storage Explorer's query builder with no clause), means no
// filter, for entities and tables alike (F-FILTER-EMPTY).
func TestSDKEmptyFilter(t *testing.T) {
	f := newFixture(t)
	var seen []string
	f.tr.before = func(r *http.Request) { seen = append(seen, r.URL.RawQuery) }
	if _, err := f.svc.CreateTable(ctx, "empty", nil); err != nil {
		t.Fatal(err)
	}
	c := f.svc.NewClient("empty")
	for _, rk := range []string{"a", "b", "c"} {
		if _, err := c.AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": rk}), nil); err != nil {
			t.Fatal(err)
		}
	}
	seen = nil
	pager := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("")})
	page, err := pager.NextPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entities) != 3 {
		t.Errorf("%d entities, want 3", len(page.Entities))
	}
	if len(seen) != 1 || !strings.Contains(seen[0], "%24filter=&") && !strings.HasSuffix(seen[0], "%24filter=") {
		t.Errorf("the SDK did not send an empty $filter: %q", seen)
	}
	tables, err := f.svc.NewListTablesPager(&aztables.ListTablesOptions{Filter: to.Ptr("")}).NextPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables.Tables) != 1 || *tables.Tables[0].Name != "empty" {
		t.Errorf("tables %+v", tables.Tables)
	}
}

// TestSDKStatsOnTheSecondary: replication statistics are answered on the
// secondary endpoint, which the Go and Python SDKs address path-style as
// /{account}-secondary, and refused on the primary; the secondary serves
// reads of the same account and refuses writes (F-STATS-SECONDARY).
func TestSDKStatsOnTheSecondary(t *testing.T) {
	f := newFixture(t)
	cred, err := aztables.NewSharedKeyCredential(rest.WellKnownAccount, rest.WellKnownKey)
	if err != nil {
		t.Fatal(err)
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: f.tr, Retry: policy.RetryOptions{MaxRetries: -1}}}
	sec, err := aztables.NewServiceClientWithSharedKey(f.srv.URL+"/"+rest.WellKnownAccount+"-secondary", cred, opts)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := sec.GetStatistics(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stats.GeoReplication == nil || stats.GeoReplication.Status == nil || *stats.GeoReplication.Status != aztables.GeoReplicationStatusLive || stats.GeoReplication.LastSyncTime == nil {
		t.Errorf("stats %+v", stats.GeoReplication)
	}
	_, err = f.svc.GetStatistics(ctx, nil)
	wantCode(t, err, "InvalidQueryParameterValue", 400)

	if _, err := f.svc.CreateTable(ctx, "replicated", nil); err != nil {
		t.Fatal(err)
	}
	page, err := sec.NewListTablesPager(nil).NextPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Tables) != 1 || *page.Tables[0].Name != "replicated" {
		t.Errorf("tables on the secondary: %+v", page.Tables)
	}
	_, err = sec.CreateTable(ctx, "nowrite", nil)
	wantCode(t, err, "AuthorizationFailure", 403)
}

// TestSDKNewAccountProperties: a new account's service properties are a new
// storage account's, as the Go SDK's recorded TestGetProperties read them:
// hour metrics on with API-level metrics and 7 days' retention, minute
// metrics and logging off, no CORS rules (F-DEFAULT-PROPERTIES).
func TestSDKNewAccountProperties(t *testing.T) {
	f := newFixture(t)
	p, err := f.svc.GetProperties(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, m, l := p.HourMetrics, p.MinuteMetrics, p.Logging
	if h == nil || !*h.Enabled || h.IncludeAPIs == nil || !*h.IncludeAPIs || h.RetentionPolicy == nil || !*h.RetentionPolicy.Enabled || *h.RetentionPolicy.Days != 7 {
		t.Errorf("hour metrics %+v", h)
	}
	if m == nil || *m.Enabled || m.IncludeAPIs != nil || *m.RetentionPolicy.Enabled {
		t.Errorf("minute metrics %+v", m)
	}
	if l == nil || *l.Read || *l.Write || *l.Delete || *l.RetentionPolicy.Enabled {
		t.Errorf("logging %+v", l)
	}
	if len(p.Cors) != 0 {
		t.Errorf("CORS rules %+v", p.Cors)
	}
}

// TestSDKAccessPolicyWithoutTimes: stored access policies without a start or
// an expiry, or without any field, read back as the service shows them in
// the JS SDK's recorded should_send_a_null_ap (F-ACL-EMPTY-POLICY).
func TestSDKAccessPolicyWithoutTimes(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.CreateTable(ctx, "policies", nil); err != nil {
		t.Fatal(err)
	}
	c := f.svc.NewClient("policies")
	var raw []byte
	f.tr.after = func(r *http.Response) {
		if r.Request.Method == http.MethodGet && strings.Contains(r.Request.URL.RawQuery, "comp=acl") {
			raw, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
		}
	}
	acl := []*aztables.SignedIdentifier{
		{ID: to.Ptr("null")},
		{ID: to.Ptr("empty"), AccessPolicy: &aztables.AccessPolicy{}},
		{ID: to.Ptr("partial"), AccessPolicy: &aztables.AccessPolicy{Permission: to.Ptr("r")}},
	}
	if _, err := c.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: acl}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetAccessPolicy(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers><SignedIdentifier><Id>null</Id></SignedIdentifier><SignedIdentifier><Id>empty</Id></SignedIdentifier><SignedIdentifier><Id>partial</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>"
	if string(raw) != want {
		t.Errorf("ACL body\n got %s\nwant %s", raw, want)
	}
	if len(got.SignedIdentifiers) != 3 || got.SignedIdentifiers[0].AccessPolicy != nil || got.SignedIdentifiers[2].AccessPolicy == nil ||
		got.SignedIdentifiers[2].AccessPolicy.Start != nil || got.SignedIdentifiers[2].AccessPolicy.Expiry != nil || *got.SignedIdentifiers[2].AccessPolicy.Permission != "r" {
		t.Errorf("read back %+v", got.SignedIdentifiers)
	}
}
