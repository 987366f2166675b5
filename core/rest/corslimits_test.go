//go:build !js

package rest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/store"
)

// Set Service Properties refuses CORS rules past the service's limits with
// its errors and keeps the rules it had (F-CORS-LIMITS): the cases of the
// .NET storage library's CORS tests, which ran against the service.
func TestCorsRuleLimits(t *testing.T) {
	f := newFixture(t)
	list := func(prefix string, n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = prefix + strconv.Itoa(i)
		}
		return strings.Join(items, ",")
	}
	rule := func(origins, allowed, exposed string) *aztables.CorsRule {
		return &aztables.CorsRule{AllowedOrigins: to.Ptr(origins), AllowedMethods: to.Ptr("GET"),
			AllowedHeaders: to.Ptr(allowed), ExposedHeaders: to.Ptr(exposed), MaxAgeInSeconds: to.Ptr[int32](5)}
	}
	basic := rule("www.xyz.com", "x-ms-meta-data*,x-ms-meta-target*,x-ms-meta-xyz", "x-ms-meta-data*,x-ms-meta-abc")
	many := func(n int) []*aztables.CorsRule {
		rules := make([]*aztables.CorsRule, n)
		for i := range rules {
			rules[i] = basic
		}
		return rules
	}
	// sized is rules of short headers whose lists hold n bytes together.
	sized := func(n int) []*aztables.CorsRule {
		var rules []*aztables.CorsRule
		for n > 0 {
			r := rule("*", "", "")
			n -= len("*") + len("GET")
			a := min(n, 309)
			r.AllowedHeaders = to.Ptr(list("x-", 64)[:a])
			b := min(n-a, 309)
			r.ExposedHeaders = to.Ptr(list("y-", 64)[:b])
			n -= a + b
			rules = append(rules, r)
		}
		return rules
	}
	headers := "x-ms-meta-target*,x-ms-meta-other*," + list("x-ms-meta-", 64)
	for _, c := range []struct {
		name  string
		rules []*aztables.CorsRule
		code  string // "" when accepted
	}{
		{"five rules", many(5), ""},
		{"six rules", many(6), "InvalidXmlDocument"},
		{"64 origins", []*aztables.CorsRule{rule(list("www.xyz", 64), "", "")}, ""},
		{"65 origins", []*aztables.CorsRule{rule(list("www.xyz", 65), "", "")}, "InvalidXmlNodeValue"},
		{"64 literal and 2 prefixed headers", []*aztables.CorsRule{rule("www.xyz.com", headers, headers)}, ""},
		{"65 literal exposed headers", []*aztables.CorsRule{rule("www.xyz.com", headers, headers+",x-ms-meta-toomany")}, "InvalidXmlNodeValue"},
		{"65 literal allowed headers", []*aztables.CorsRule{rule("www.xyz.com", headers+",x-ms-meta-toomany", headers)}, "InvalidXmlNodeValue"},
		{"3 prefixed exposed headers", []*aztables.CorsRule{rule("www.xyz.com", headers, headers+",x-ms-meta-toomany*")}, "InvalidXmlNodeValue"},
		{"3 prefixed allowed headers", []*aztables.CorsRule{rule("www.xyz.com", headers+",x-ms-meta-toomany*", headers)}, "InvalidXmlNodeValue"},
		{"an origin of 256 bytes", []*aztables.CorsRule{rule("http://"+strings.Repeat("a", 249), "", "")}, ""},
		{"an origin of 257 bytes", []*aztables.CorsRule{rule("http://"+strings.Repeat("a", 250), "", "")}, "InvalidXmlNodeValue"},
		{"a header of 257 bytes", []*aztables.CorsRule{rule("*", "x-"+strings.Repeat("a", 255), "")}, "InvalidXmlNodeValue"},
		{"2 KiB of lists", sized(2048), ""},
		{"2 KiB and a byte of lists", sized(2049), "InvalidXmlNodeValue"},
		{"840 KB of commas", []*aztables.CorsRule{rule("http://a.example"+strings.Repeat(",", 840000), "", "")}, "InvalidXmlNodeValue"},
	} {
		before := f.store.Properties().Cors
		_, err := f.svc.SetProperties(ctx, aztables.ServiceProperties{Cors: c.rules}, nil)
		var re *azcore.ResponseError
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.code == "" && len(f.store.Properties().Cors) != len(c.rules):
			t.Errorf("%s: %d rules stored", c.name, len(f.store.Properties().Cors))
		case c.code != "" && (!asResponseError(err, &re) || re.StatusCode != 400 || re.ErrorCode != c.code):
			t.Errorf("%s: %v, want 400 %s", c.name, err, c.code)
		case c.code != "" && len(f.store.Properties().Cors) != len(before):
			t.Errorf("%s: the rules changed although refused", c.name)
		}
	}
}

// The rules' lists are read when they are set: a request consulting them
// allocates nothing, however long they are (the largest the service takes).
func TestCorsRulesReadOnce(t *testing.T) {
	f := newFixture(t)
	if err := f.store.SetProperties(store.ServiceProperties{Cors: largestCors()}); err != nil {
		t.Fatal(err)
	}
	rules := f.store.Cors()
	headers := []string{"h1", " h2", "h3"}
	if n := testing.AllocsPerRun(100, func() {
		for i := range rules {
			if rules[i].Allows("http://nowhere.example", "GET", headers) || !rules[i].Allows("http://o3", "PUT", headers) {
				t.Fatal("wrong answer")
			}
		}
	}); n != 0 {
		t.Errorf("%v allocations a request", n)
	}
}
