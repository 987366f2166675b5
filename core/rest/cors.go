package rest

import (
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// corsRule finds the first rule that allows an origin, a method and the
// request headers a preflight names. The rules' lists were read when they
// were set, so a request costs no more than the lists' items.
func corsRule(rules []store.CorsRule, origin, method string, headers []string) (store.CorsRule, bool) {
	for i := range rules {
		if rules[i].Allows(origin, method, headers) {
			return rules[i], true
		}
	}
	return store.CorsRule{}, false
}

// preflight answers an OPTIONS request from the account's CORS rules
// (F-CORS-PREFLIGHT): 400 when Origin or Access-Control-Request-Method is
// missing, 200 with the Access-Control headers when a rule allows it, else
// 403 CorsPreflightFailure (also when no rule exists).
func (x *exchange) preflight() {
	origin := x.r.Header.Get("Origin")
	method := x.r.Header.Get("Access-Control-Request-Method")
	if origin == "" || method == "" {
		x.failAuth(tableerr.WithMessage(tableerr.InvalidHeaderValue, "A required CORS header is not present."))
		return
	}
	var headers []string
	if h := x.r.Header.Get("Access-Control-Request-Headers"); h != "" {
		headers = strings.Split(h, ",")
	}
	rule, ok := corsRule(x.h.store.Cors(), origin, method, headers)
	if !ok {
		x.failAuth(tableerr.New(tableerr.CorsPreflightFailure))
		return
	}
	h := x.headers()
	h.Set("Access-Control-Allow-Origin", allowOrigin(rule, origin))
	h.Set("Access-Control-Allow-Methods", method)
	if len(headers) > 0 {
		h.Set("Access-Control-Allow-Headers", x.r.Header.Get("Access-Control-Request-Headers"))
	}
	h.Set("Access-Control-Max-Age", strconv.Itoa(rule.MaxAgeInSeconds))
	if !rule.AllOrigins() {
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	h.Set("Content-Length", "0")
	x.w.WriteHeader(200)
}

func allowOrigin(rule store.CorsRule, origin string) string {
	if rule.AllOrigins() {
		return "*"
	}
	return origin
}

// corsHeaders adds the CORS headers of an actual request: without rules the
// service adds none; with rules, a request from an origin a rule allows gets
// the Access-Control headers. Vary: Origin marks a cacheable (GET or HEAD)
// answer that depends on the origin: when CORS is on and no rule allowing
// every origin ("*") matched (F-CORS-VARY).
func (x *exchange) corsHeaders() {
	rules := x.h.store.Cors()
	if len(rules) == 0 {
		return
	}
	h := x.out
	cacheable := x.r.Method == "GET" || x.r.Method == "HEAD"
	origin := x.r.Header.Get("Origin")
	if origin == "" {
		// Not a CORS request; a cached answer must still not serve one,
		// unless a rule allows every origin.
		if _, all := corsRule(rules, "", x.r.Method, nil); cacheable && !all {
			h.Add("Vary", "Origin")
		}
		return
	}
	rule, ok := corsRule(rules, origin, x.r.Method, nil)
	if !ok {
		if cacheable {
			h.Add("Vary", "Origin")
		}
		return
	}
	h.Set("Access-Control-Allow-Origin", allowOrigin(rule, origin))
	if !rule.AllOrigins() {
		if cacheable {
			h.Add("Vary", "Origin")
		}
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	expose := rule.ExposedHeaders
	if expose == "" || expose == "*" {
		// The headers a client of the Table API reads.
		expose = "ETag,Location,DataServiceId,Preference-Applied,x-ms-request-id,x-ms-version,x-ms-client-request-id,x-ms-continuation-NextPartitionKey,x-ms-continuation-NextRowKey,x-ms-continuation-NextTableName,x-ms-error-code,Date,Content-Type"
	}
	h.Set("Access-Control-Expose-Headers", expose)
}
