package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/profile"
)

// TestSDKAzurite drives the Go SDK against the azure and azurite-3.37
// profiles and asserts, both ways, the differences of Azurite a program
// using the SDK meets (docs/profiles.md).
func TestSDKAzurite(t *testing.T) {
	for _, p := range []profile.Profile{profile.Azure(), profile.Azurite337()} {
		azurite := p.Name == "azurite-3.37"
		t.Run(p.Name, func(t *testing.T) {
			t.Run("Headers", func(t *testing.T) { // F-AZURITE-SERVER, F-AZURITE-VERSION, F-AZURITE-NO-LOCATION, F-AZURITE-PREFER-ECHO
				var got http.Header
				f, _ := newProfileTable(t, p, "heads", false)
				f.tr.after = func(r *http.Response) { got = r.Header.Clone() }
				if _, err := f.svc.NewClient("heads").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
					t.Fatal(err)
				}
				server, version := got.Get("Server"), got.Get("x-ms-version")
				loc := got.Get("Location")
				if azurite {
					if server != "Azurite-Table/3.37.0" || version != "2026-06-06" || loc != "" || got.Get("Cache-Control") != "" {
						t.Fatalf("azurite insert answered Server %q, x-ms-version %q, Location %q, Cache-Control %q", server, version, loc, got.Get("Cache-Control"))
					}
					return
				}
				if !strings.HasPrefix(server, "Windows-Azure-Table/") || version == "2026-06-06" || !strings.HasSuffix(loc, "heads(PartitionKey='p',RowKey='r')") {
					t.Fatalf("azure insert answered Server %q, x-ms-version %q, Location %q", server, version, loc)
				}
			})
			t.Run("UntypedDouble", func(t *testing.T) { // F-AZURITE-DOUBLE
				f, tc := newProfileTable(t, p, "doubles", false)
				// Typed, as the SDK re-encodes 3.0 as 3.
				body := []byte(`{"PartitionKey":"p","RowKey":"r","ratio":3.0,"ratio@odata.type":"Edm.Double"}`)
				if _, err := tc.AddEntity(ctx, body, nil); err != nil {
					t.Fatal(err)
				}
				var wire string
				f.tr.after = func(r *http.Response) {
					b, _ := readAndRestore(r)
					wire = string(b)
				}
				resp, err := tc.GetEntity(ctx, "p", "r", nil)
				if err != nil {
					t.Fatal(err)
				}
				// Azurite writes 3: a JSON reader takes it for an integer
				// (the SDK's own re-encoding of the entity loses the ".0"
				// either way; the wire tells the two apart).
				if got := strings.Contains(wire, `"ratio":3,`) || strings.Contains(wire, `"ratio":3}`); got != azurite || !azurite && !strings.Contains(wire, `"ratio":3.0`) {
					t.Fatalf("the double on the wire: %s (the SDK gave %s)", wire, resp.Value)
				}
			})
			t.Run("EmptyErrorCode", func(t *testing.T) { // F-AZURITE-EMPTY-CODE
				f := newProfileFixture(t, p)
				_, err := f.svc.CreateTable(ctx, "ab", nil)
				if azurite {
					wantCode(t, err, "", 400)
					return
				}
				wantCode(t, err, "OutOfRangeInput", 400)
			})
			t.Run("FilterSyntaxMessage", func(t *testing.T) { // F-AZURITE-EMPTY-CODE (the filter's message)
				_, tc := newProfileTable(t, p, "filters", false)
				pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("aaa bbb ccc")})
				_, err := pager.NextPage(ctx)
				wantCode(t, err, "InvalidInput", 400)
				if got := strings.Contains(err.Error(), "Syntax error at position 7"); got == azurite {
					t.Fatalf("the position in the message: %v, on %s: %v", got, p.Name, err)
				}
			})
			t.Run("UpdateIgnoresPrefer", func(t *testing.T) { // F-AZURITE-PREFER-UPDATE
				f, tc := newProfileTable(t, p, "prefers", true)
				var status int
				var applied string
				f.tr.before = func(r *http.Request) { r.Header.Set("Prefer", "return-content") }
				f.tr.after = func(r *http.Response) { status, applied = r.StatusCode, r.Header.Get("Preference-Applied") }
				// The SDK takes only a 204 for success: Azure's 200 with the
				// entity is an error to it, Azurite's 204 is not.
				_, err := tc.UpdateEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","n":1}`), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeMerge})
				if (err == nil) != azurite {
					t.Fatalf("merge with Prefer: return-content: %v", err)
				}
				if azurite && (status != 204 || applied != "") || !azurite && (status != 200 || applied != "return-content") {
					t.Fatalf("merge with Prefer: return-content answered %d, Preference-Applied %q", status, applied)
				}
			})
			t.Run("BatchAnswer", func(t *testing.T) { // F-AZURITE-BATCH-ANSWER
				f, tc := newProfileTable(t, p, "batched", false)
				var body string
				f.tr.after = func(r *http.Response) {
					b, _ := readAndRestore(r)
					body = string(b)
				}
				var actions []aztables.TransactionAction
				for _, rk := range []string{"1", "2"} {
					actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"` + rk + `"}`)})
				}
				if _, err := tc.SubmitTransaction(ctx, actions, nil); err != nil {
					t.Fatal(err)
				}
				// The Go SDK's part URLs carry a query: Azurite's Location then
				// loses the table name's last character.
				short := strings.Contains(body, "/batche(PartitionKey='p',RowKey='1')")
				full := strings.Contains(body, "/batched(PartitionKey='p',RowKey='1')")
				if short != azurite || full == azurite || strings.Contains(body, "Preference-Applied") == azurite {
					t.Fatalf("the changeset's answer on %s:\n%s", p.Name, body)
				}
			})
			t.Run("MissingLimits", func(t *testing.T) { // F-AZURITE-LAX-VALUES
				f, tc := newProfileTable(t, p, "limits", true)
				_, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Top: to.Ptr[int32](1001)}).NextPage(ctx)
				if azurite && err != nil || !azurite && err == nil {
					t.Fatalf("$top=1001: %v", err)
				}
				// The SDK sends If-Match: * unless told otherwise; without it
				// Azure refuses the delete and Azurite does it.
				f.tr.before = func(r *http.Request) {
					if r.Method == http.MethodDelete {
						r.Header.Del("If-Match")
					}
				}
				_, err = tc.DeleteEntity(ctx, "p", "r", nil)
				if azurite {
					if err != nil {
						t.Fatalf("delete without If-Match: %v", err)
					}
					if n, _ := f.store.Count("limits"); n != 0 {
						t.Fatalf("%d entities left after the delete", n)
					}
					return
				}
				wantCode(t, err, "MissingRequiredHeader", 400)
			})
		})
	}
}

// newProfileTable is newProfileFixture with a table created, holding the
// entity p/r when withEntity is set.
func newProfileTable(t *testing.T, p profile.Profile, name string, withEntity bool) (*fixture, *aztables.Client) {
	t.Helper()
	f := newProfileFixture(t, p)
	tc := f.svc.NewClient(name)
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if withEntity {
		if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	return f, tc
}
