package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

// CORS rules past the service's limits are refused by Set Service
// Properties with the service's error; a log record or an account document
// holding them (an earlier build took them and acknowledged the change) is
// loaded, its lists read once, so that an upgrade neither refuses to start
// nor drops the change (F-CORS-LIMITS).
func TestCorsRulesPastLimitsRefused(t *testing.T) {
	commas := []CorsRule{{AllowedOrigins: "http://a.example" + strings.Repeat(",", 840000), AllowedMethods: "GET"}}
	s := newStore(t)
	if err := s.SetProperties(ServiceProperties{Cors: commas}); err == nil || err.Code != tableerr.InvalidXMLNodeValue {
		t.Errorf("set: %v", err)
	}
	if len(s.Cors()) != 0 {
		t.Errorf("rules stored: %d", len(s.Cors()))
	}

	p := defaultProperties()
	p.Cors = commas
	rec, _ := json.Marshal(change{Op: opProperties, Properties: &p})
	if err := s.Redo(rec); err != nil {
		t.Errorf("redo of an earlier build's record: %v", err)
	}
	if r := s.Cors(); len(r) != 1 || r[0].parsed == nil || len(r[0].parsed.origins.exact) != 1 || !r[0].Allows("http://a.example", "GET", nil) {
		t.Errorf("rules after redo: %d", len(r))
	}
	headers := strings.Repeat("x,", 65)
	doc := strings.Replace(string(newStore(t).Snapshot()), `"cors":null`, `"cors":[{"allowedOrigins":"*","allowedMethods":"GET","allowedHeaders":"`+headers+`","exposedHeaders":"","maxAgeInSeconds":1}]`, 1)
	if doc == string(newStore(t).Snapshot()) {
		t.Fatal("fixture did not change")
	}
	if err := s.Restore([]byte(doc)); err != nil {
		t.Errorf("restore of an earlier build's document: %v", err)
	}
	if r := s.Cors(); len(r) != 1 || r[0].AllowedHeaders != headers || r[0].parsed == nil {
		t.Errorf("rules after restore: %+v", r)
	}
	// What that build refused stays refused.
	p.Cors = make([]CorsRule, MaxCorsRules+1)
	for i := range p.Cors {
		p.Cors[i] = CorsRule{AllowedOrigins: "*", AllowedMethods: "GET"}
	}
	rec, _ = json.Marshal(change{Op: opProperties, Properties: &p})
	if err := s.Redo(rec); err == nil || !strings.Contains(err.Error(), "6 rules, at most 5") {
		t.Errorf("redo of six rules: %v", err)
	}

	// Within the limits, a log's rules come back with their lists read.
	p.Cors = []CorsRule{{AllowedOrigins: "https://a.example, https://b.example", AllowedMethods: "GET,PUT", AllowedHeaders: "x-ms-*"}}
	rec, _ = json.Marshal(change{Op: opProperties, Properties: &p})
	if err := s.Redo(rec); err != nil {
		t.Fatal(err)
	}
	if r := s.Cors(); len(r) != 1 || r[0].parsed == nil || !r[0].Allows("https://B.example", "PUT", []string{"x-ms-date"}) || r[0].Allows("https://c.example", "GET", nil) {
		t.Errorf("rules after redo: %+v", r)
	}
}

// listHas is a rule list's meaning read the plain way, the list split on
// every request: "*", an exact item (case aside) or a prefix ending in "*";
// empty items allow nothing.
func listHas(list, value string) bool {
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case item == "*":
			return true
		case strings.HasSuffix(item, "*") && len(value) >= len(item)-1 && strings.EqualFold(value[:len(item)-1], item[:len(item)-1]):
			return true
		case strings.EqualFold(item, value):
			return true
		}
	}
	return false
}

// FuzzCheckCors: any rule is refused or taken with lists that answer as
// the plain reading does, and a taken rule is within the limits.
func FuzzCheckCors(f *testing.F) {
	f.Add("https://a.example, http://b*", "GET,put", "x-ms-*,Content-Type", "", "https://A.example", "PUT", "x-ms-date")
	f.Add("*", "GET", "", "*", "", "GET", "")
	f.Add(",,, ,", "GET,,", "a*,b*,c*", "x", "http://b", "get", "b")
	f.Fuzz(func(t *testing.T, origins, methods, headers, exposed, origin, method, header string) {
		rules, err := checkCors([]CorsRule{{AllowedOrigins: origins, AllowedMethods: methods, AllowedHeaders: headers, ExposedHeaders: exposed}}, true)
		if err != nil {
			if err.code != tableerr.InvalidXMLDocument && err.code != tableerr.InvalidXMLNodeValue {
				t.Fatalf("code %s", err.code)
			}
			return
		}
		if len(origins)+len(methods)+len(headers)+len(exposed) > MaxCorsText {
			t.Fatal("over 2 KiB taken")
		}
		r := rules[0]
		want := listHas(origins, origin) && listHas(methods, method) && (strings.TrimSpace(header) == "" || listHas(headers, strings.TrimSpace(header)))
		if got := r.Allows(origin, method, []string{header}); got != want {
			t.Fatalf("Allows(%q, %q, %q) = %v, the plain reading says %v", origin, method, header, got, want)
		}
	})
}
