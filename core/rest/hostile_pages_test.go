//go:build !js

package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// The hostile reads: a query whose answer is far larger than its entities'
// sizes, and requests that follow the largest CORS rules.

// unsignedHandler serves st to unsigned requests, as hostile's handler
// does (the hostile reads need only what anyone may read).
func unsignedHandler(st *store.Store) http.Handler {
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	return resthttp.New(rest.New(rest.Options{Store: st, Credentials: creds, Clock: time.Now}))
}

// fill inserts n entities into a new table, body(i) giving each one's JSON.
func fill(tb testing.TB, st *store.Store, table string, n int, body func(i int) string) {
	tb.Helper()
	if _, err := st.CreateTable(table); err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < n; i++ {
		e, err := odata.DecodeEntity([]byte(body(i)))
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := st.Apply(table, store.Op{Kind: store.Insert, Entity: e}); err != nil {
			tb.Fatal(err)
		}
	}
}

// smallEntities is the table of the wide $select: 1,000 entities of one
// property.
func smallEntities(tb testing.TB, st *store.Store) {
	fill(tb, st, "sel", 1000, func(i int) string {
		return `{"PartitionKey":"p","RowKey":"` + strconv.Itoa(10000+i) + `","V":1}`
	})
}

// absentNames is a $select of n names of length characters that no entity
// has (each comes back as null on every entity).
func absentNames(n, length int) string {
	names := make([]string, n)
	for i := range names {
		s := strconv.Itoa(i)
		names[i] = "n" + strings.Repeat("x", length-1-len(s)) + s
	}
	return strings.Join(names, ",")
}

// expandingEntities is the table whose full-metadata answer is about 7
// times its entities' sizes: 1,000 entities with keys of 500 euro signs
// (each 2 bytes by the size formula, 9 in a percent-encoded link, which
// full metadata writes twice) and 107 DateTime properties (18 bytes by the
// formula, about 65 with their annotations).
func expandingEntities(tb testing.TB, st *store.Store) {
	var props strings.Builder
	for j := 0; j < 107; j++ {
		n := "d" + strconv.Itoa(j)
		props.WriteString(`,"` + n + `@odata.type":"Edm.DateTime","` + n + `":"2024-01-01T00:00:00.0000000Z"`)
	}
	key := strings.Repeat("€", 500)
	fill(tb, st, "full", 1000, func(i int) string {
		return `{"PartitionKey":"` + key + `","RowKey":"` + key + strconv.Itoa(1000+i) + `"` + props.String() + `}`
	})
}

// pageWithin GETs a query page and reports whether it is a 200 whose body
// is at most rest.MaxPageBody bytes and that ends with a continuation
// (the table holds more than fits).
func pageWithin(h http.Handler, target, accept string) func() bool {
	return func() bool {
		req := httptest.NewRequest("GET", "http://127.0.0.1/"+rest.WellKnownAccount+target, nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code == 200 && w.Body.Len() <= rest.MaxPageBody && w.Header().Get("x-ms-continuation-NextRowKey") != ""
	}
}

// commaOrigins is a 4 MiB Set Service Properties body whose one CORS rule
// allows origins that are mostly commas.
func commaOrigins() string {
	head := `<?xml version="1.0"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>http://a.example`
	tail := `</AllowedOrigins><AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`
	return head + strings.Repeat(",", rest.MaxBody-len(head)-len(tail)) + tail
}

// largestCors is the largest set of CORS rules the service accepts: five
// rules, together 2 KiB of lists, each list of short items.
func largestCors() []store.CorsRule {
	list := func(prefix string, n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = prefix + strconv.Itoa(i)
		}
		return strings.Join(items, ",")
	}
	rules := make([]store.CorsRule, store.MaxCorsRules)
	for i := range rules {
		// 5 × (120 + 15 + 135 + 135) = 2,025 bytes of lists.
		rules[i] = store.CorsRule{AllowedOrigins: list("http://o", 15)[:120], AllowedMethods: "GET,PUT,DELETE",
			AllowedHeaders: list("h", 40)[:135], ExposedHeaders: list("e", 40)[:135], MaxAgeInSeconds: 1}
	}
	return rules
}

// afterCors is an unsigned GET without Origin to a handler whose account
// holds rules: every request consults them.
func afterCors(h http.Handler) func() bool {
	return func() bool {
		req := httptest.NewRequest("GET", "http://127.0.0.1/"+rest.WellKnownAccount+"/Tables", nil)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code == 200 && w.Header().Get("Vary") == "Origin"
	}
}
