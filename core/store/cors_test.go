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
