package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

// CORS rules past the service's limits are refused however they arrive:
// Set Service Properties answers the service's error, and a log record or
// an account document holding them (written before the limits were
// enforced) is refused with a message instead of being read into every
// later request (F-CORS-LIMITS).
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
	if err := s.Redo(rec); err == nil || !strings.Contains(err.Error(), "840019 bytes of lists, at most 2048") {
		t.Errorf("redo: %v", err)
	}
	doc := strings.Replace(string(s.Snapshot()), `"cors":null`, `"cors":[{"allowedOrigins":"*","allowedMethods":"GET","allowedHeaders":"`+strings.Repeat("x,", 65)+`","exposedHeaders":"","maxAgeInSeconds":1}]`, 1)
	if doc == string(s.Snapshot()) {
		t.Fatal("fixture did not change")
	}
	if err := s.Restore([]byte(doc)); err == nil || !strings.Contains(err.Error(), "more than 64 literal headers") {
		t.Errorf("restore: %v", err)
	}
	if len(s.Cors()) != 0 {
		t.Errorf("rules stored: %d", len(s.Cors()))
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
		rules, err := checkCors([]CorsRule{{AllowedOrigins: origins, AllowedMethods: methods, AllowedHeaders: headers, ExposedHeaders: exposed}})
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
