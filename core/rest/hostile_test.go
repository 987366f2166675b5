package rest_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// A page of large entities is cut by bytes and continued with a token: no
// response holds more than a few MiB however large the entities are.
func TestQueryPagesCappedInBytes(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "big", nil)
	// 520,000 control characters: just under 1 MiB by the size formula,
	// about 3 MB as JSON (\u0001 each).
	huge := strings.Repeat("\x01", 520000)
	const n = 10
	for i := 0; i < n; i++ {
		e := &entity.Entity{PartitionKey: "p", RowKey: string(rune('a' + i)), Properties: []entity.Property{{Name: "V", Value: edm.StringValue(huge)}}}
		if _, err := f.store.Apply("big", store.Op{Kind: store.Insert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	got, pages := 0, 0
	next := url.Values{}
	for pages < n+1 {
		req, _ := http.NewRequest("GET", f.srv.URL+"/"+rest.WellKnownAccount+"/big()?"+next.Encode(), nil)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		resp, err := f.tr.inner.Do(signed(req))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		pages++
		if resp.StatusCode != 200 {
			t.Fatalf("page %d: %d %s", pages, resp.StatusCode, body[:min(len(body), 200)])
		}
		if len(body) > 16<<20 {
			t.Errorf("page %d is %d bytes", pages, len(body))
		}
		got += strings.Count(string(body), `"PartitionKey"`)
		npk := resp.Header.Get("x-ms-continuation-NextPartitionKey")
		if npk == "" {
			break
		}
		next = url.Values{"NextPartitionKey": {npk}, "NextRowKey": {resp.Header.Get("x-ms-continuation-NextRowKey")}}
	}
	if got != n || pages < 3 {
		t.Errorf("%d entities in %d pages, want %d in at least 3", got, pages, n)
	}
}
