package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// newProfileFixture is newFixture for an account answering as profile p.
func newProfileFixture(t testing.TB, p profile.Profile) *fixture {
	t.Helper()
	st := store.New(store.Options{Clock: time.Now, Profile: p})
	h := rest.New(rest.Options{Store: st, Credentials: rest.WellKnown(), Clock: time.Now})
	srv := httptest.NewServer(resthttp.New(h))
	t.Cleanup(srv.Close)
	f := &fixture{srv: srv, store: st, tr: &transport{inner: srv.Client()}}
	f.svc = f.client(t, rest.WellKnownKey)
	return f
}

// TestSDKProfiles drives the Go SDK against the azure and cosmos profiles
// and asserts where their answers differ (docs/profiles.md); azurite-3.37
// answers these calls as azure does (its own differences are
// TestSDKAzurite's).
func TestSDKProfiles(t *testing.T) {
	for _, p := range []profile.Profile{profile.Azure(), profile.Cosmos(), profile.Azurite337()} {
		cosmos := p.Name == "cosmos"
		t.Run(p.Name, func(t *testing.T) {
			t.Run("CaseDifferingTableNames", func(t *testing.T) { // F-COSMOS-TABLE-CASE
				f := newProfileFixture(t, p)
				if _, err := f.svc.CreateTable(ctx, "People", nil); err != nil {
					t.Fatal(err)
				}
				_, err := f.svc.CreateTable(ctx, "people", nil)
				if !cosmos {
					wantCode(t, err, "TableAlreadyExists", 409)
					return
				}
				if err != nil {
					t.Fatalf("people beside People: %v", err)
				}
				upper, lower := f.svc.NewClient("People"), f.svc.NewClient("people")
				if _, err := upper.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
					t.Fatal(err)
				}
				_, err = lower.GetEntity(ctx, "p", "r", nil)
				wantCode(t, err, "ResourceNotFound", 404)
			})
			t.Run("QueryOrder", func(t *testing.T) { // F-COSMOS-ORDER, F-COSMOS-TOKENS
				f := newProfileFixture(t, p)
				tc := f.svc.NewClient("ordered")
				if _, err := tc.CreateTable(ctx, nil); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"c", "a", "d", "b"} {
					if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"`+k+`"}`), nil); err != nil {
						t.Fatal(err)
					}
				}
				var got []string
				pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Top: to.Ptr[int32](1)})
				for i := 0; pager.More() && i < 10; i++ {
					page, err := pager.NextPage(ctx)
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range page.Entities {
						var m map[string]any
						if err := json.Unmarshal(e, &m); err != nil {
							t.Fatal(err)
						}
						got = append(got, m["RowKey"].(string))
					}
				}
				want := "abcd"
				if cosmos {
					want = "cadb"
				}
				if strings.Join(got, "") != want {
					t.Fatalf("rows %v, want %s", got, want)
				}
			})
			t.Run("BatchOverTwoMB", func(t *testing.T) { // F-COSMOS-BATCH-SIZE
				f := newProfileFixture(t, p)
				tc := f.svc.NewClient("big")
				if _, err := tc.CreateTable(ctx, nil); err != nil {
					t.Fatal(err)
				}
				big := strings.Repeat("x", 30000)
				var actions []aztables.TransactionAction
				for i := 0; i < 45; i++ { // about 2.7 MB of body, under Storage's 4 MiB
					e, _ := json.Marshal(map[string]string{"PartitionKey": "p", "RowKey": strconv.Itoa(100 + i), "S1": big, "S2": big})
					actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: e})
				}
				_, err := tc.SubmitTransaction(ctx, actions, nil)
				if !cosmos {
					if err != nil {
						t.Fatalf("azure: %v", err)
					}
					return
				}
				wantCode(t, err, "RequestBodyTooLarge", 413)
				if n, _ := f.store.Count("big"); n != 0 {
					t.Fatalf("%d entities written by a refused batch", n)
				}
			})
			t.Run("NoACLOrServiceEndpoints", func(t *testing.T) { // F-COSMOS-NO-ACL, F-COSMOS-NO-SERVICE
				f := newProfileFixture(t, p)
				tc := f.svc.NewClient("acl")
				if _, err := tc.CreateTable(ctx, nil); err != nil {
					t.Fatal(err)
				}
				_, aclErr := tc.GetAccessPolicy(ctx, nil)
				_, propErr := f.svc.GetProperties(ctx, nil)
				if !cosmos {
					if aclErr != nil || propErr != nil {
						t.Fatalf("azure: %v, %v", aclErr, propErr)
					}
					return
				}
				wantCode(t, aclErr, "NotImplemented", 501)
				wantCode(t, propErr, "NotImplemented", 501)
			})
			t.Run("LongRowKey", func(t *testing.T) { // F-COSMOS-ROWKEY-SIZE
				f := newProfileFixture(t, p)
				tc := f.svc.NewClient("keys")
				if _, err := tc.CreateTable(ctx, nil); err != nil {
					t.Fatal(err)
				}
				_, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"`+strings.Repeat("k", 300)+`"}`), nil)
				if !cosmos {
					if err != nil {
						t.Fatalf("azure: %v", err)
					}
					return
				}
				wantCode(t, err, "PropertyValueTooLarge", 400)
			})
			t.Run("ErrorBody", func(t *testing.T) { // F-COSMOS-ERRORS
				f := newProfileFixture(t, p)
				var body string
				f.tr.after = func(r *http.Response) {
					if r.StatusCode == 404 {
						b, _ := io.ReadAll(r.Body)
						r.Body = io.NopCloser(bytes.NewReader(b))
						body = string(b)
					}
				}
				_, err := f.svc.NewClient("missing").GetEntity(ctx, "p", "r", nil)
				wantCode(t, err, "TableNotFound", 404)
				if got := strings.Contains(body, `"lang":"en-us"`) && strings.Contains(body, `\nRequestID:`); got != cosmos {
					t.Fatalf("cosmos error shape %v in %s", got, body)
				}
			})
		})
	}
}

func TestErrorOfReadsBothShapes(t *testing.T) {
	for body, want := range map[string]string{
		`{"odata.error":{"code":"ResourceNotFound","message":{"lang":"en-US","value":"The specified resource does not exist.\nRequestId:1\nTime:2026-11-22T12:00:00.0000000Z"}}}`: "The specified resource does not exist.",
		`{"odata.error":{"code":"ResourceNotFound","message":{"lang":"en-us","value":"The specified resource does not exist.\nRequestID:1\n"}}}`:                                  "The specified resource does not exist.",
	} {
		if code, msg := play.ErrorOf([]byte(body)); code != "ResourceNotFound" || msg != want {
			t.Errorf("ErrorOf(%s) = %q, %q", body, code, msg)
		}
	}
}
