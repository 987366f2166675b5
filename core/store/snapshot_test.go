package store

import (
	"math"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
)

func richStore(t testing.TB) *Store {
	t.Helper()
	s := newStore(t, "Customers", "empty")
	g, _ := edm.ParseString(edm.Guid, "c9da6455-213d-42c9-9a79-3e9149a57833")
	d, _ := edm.ParseString(edm.DateTime, "2013-08-02T17:37:43.0090043Z")
	e := ent("p", "r",
		prop("Big", edm.Int64Value(math.MaxInt64)),
		prop("When", d),
		prop("Bytes", edm.BinaryValue([]byte{0, 1, 255})),
		prop("NaN", edm.DoubleValue(math.NaN())),
		prop("Inf", edm.DoubleValue(math.Inf(-1))),
		prop("Tiny", edm.DoubleValue(5e-324)),
		prop("Third", edm.DoubleValue(1.0/3)),
		prop("Id", g),
		prop("On", edm.BoolValue(true)),
		prop("N", edm.Int32Value(-5)),
		prop("Text", edm.StringValue("é😀\"\\\n<>&")),
	)
	if _, err := s.Apply("Customers", Op{Kind: Insert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	fill(t, s, "Customers", "q", 5)
	return s
}

func TestSnapshotRoundTrip(t *testing.T) {
	s := richStore(t)
	doc := s.Snapshot()
	r := newStore(t, "Other")
	if err := r.Restore(doc); err != nil {
		t.Fatal(err)
	}
	if got := r.Snapshot(); string(got) != string(doc) {
		t.Fatalf("round trip differs:\n%s\n%s", doc, got)
	}
	if _, err := r.GetTable("Other"); err == nil {
		t.Error("restore kept a table the document does not have")
	}
	e, err := r.Get("customers", "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := s.Get("Customers", "p", "r")
	for i, p := range orig.Properties {
		q := e.Properties[i]
		if p.Name != q.Name || p.Value.Type() != q.Value.Type() || edm.Compare(p.Value, q.Value) != 0 {
			t.Errorf("property %s: %v → %v", p.Name, p.Value, q.Value)
		}
	}
	if e.Timestamp != orig.Timestamp {
		t.Error("Timestamp changed")
	}
	if !strings.HasPrefix(string(doc), `{"format":"tableplay-account","version":1,"properties":{"logging":{"version":"1.0"`) || !strings.Contains(string(doc), `"tables":[{"name":"Customers"`) {
		t.Errorf("document starts %s", doc[:80])
	}
}

func TestSnapshotKeepsACLAndProperties(t *testing.T) {
	s := richStore(t)
	start, _ := edm.ParseDateTime("2030-01-01T00:00:00Z")
	if err := s.SetACL("Customers", []SignedIdentifier{{ID: "readers", HasPolicy: true, Start: &start, Permission: "r"}, {ID: "bare"}}); err != nil {
		t.Fatal(err)
	}
	p := s.Properties()
	p.Cors = []CorsRule{{AllowedOrigins: "*", AllowedMethods: "GET", MaxAgeInSeconds: 60}}
	p.HourMetrics.RetentionEnabled, p.HourMetrics.RetentionDays = true, 7
	s.SetProperties(p)
	r := newStore(t)
	if err := r.Restore(s.Snapshot()); err != nil {
		t.Fatal(err)
	}
	acl, _ := r.ACL("Customers")
	if len(acl) != 2 || acl[0].ID != "readers" || *acl[0].Start != start || acl[0].Permission != "r" || acl[1].ID != "bare" || acl[1].Start != nil {
		t.Errorf("ACL %+v", acl)
	}
	if got := r.Properties(); len(got.Cors) != 1 || got.Cors[0].MaxAgeInSeconds != 60 || got.HourMetrics.RetentionDays != 7 {
		t.Errorf("properties %+v", got)
	}
	bad := strings.Replace(string(s.Snapshot()), `"permission":"r"`, `"permission":"rx"`, 1)
	if err := r.Restore([]byte(bad)); err == nil || !strings.Contains(err.Error(), "policy") {
		t.Errorf("bad policy: %v", err)
	}
}

func TestRestoreResumesClockAboveSnapshot(t *testing.T) {
	s := richStore(t)
	// A document from the future: its Timestamps are after the stalled clock.
	doc := strings.Replace(string(s.Snapshot()), `"RowKey":"r","Timestamp":"2026-11-22T12:00:00Z"`, `"RowKey":"r","Timestamp":"2099-01-01T00:00:00Z"`, 1)
	if doc == string(s.Snapshot()) {
		t.Fatal("fixture did not change")
	}
	r := newStore(t)
	if err := r.Restore([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	future, _ := edm.ParseDateTime("2099-01-01T00:00:00Z")
	out, err := r.Apply("Customers", Op{Kind: InsertOrMerge, Entity: ent("p", "r")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Timestamp <= future {
		t.Errorf("new Timestamp %s is not after the restored one", out.Timestamp)
	}
	r.CreateTable("fresh")
	out, _ = r.Apply("fresh", Op{Kind: Insert, Entity: ent("a", "b")})
	if out.Timestamp <= future {
		t.Errorf("other table's Timestamp %s is not after the restored one", out.Timestamp)
	}
}

func TestRestoreRejectsAndLeavesStateUntouched(t *testing.T) {
	good := string(richStore(t).Snapshot())
	tests := []struct{ name, doc, want string }{
		{"not JSON", `{"format":`, "not a tableplay account document"},
		{"wrong format", strings.Replace(good, "tableplay-account", "other", 1), "format"},
		{"future version", strings.Replace(good, `"version":1`, `"version":2`, 1), "version 2"},
		{"unknown field", strings.Replace(good, `"version":1`, `"version":1,"extra":true`, 1), "unknown field"},
		{"bad table name", strings.Replace(good, `"name":"empty"`, `"name":"e-mpty"`, 1), `table 2 ("e-mpty")`},
		{"duplicate table", strings.Replace(good, `"name":"empty"`, `"name":"CUSTOMERS"`, 1), "already has a table"},
		{"bad Int64", strings.Replace(good, `"9223372036854775807"`, `"9223372036854775808"`, 1), `property "Big"`},
		{"bad type", strings.Replace(good, `"Edm.Guid"`, `"Edm.Uuid"`, 1), "unknown type"},
		{"bad Timestamp", strings.Replace(good, `"Timestamp":"2026`, `"Timestamp":"1500`, 1), "Timestamp"},
		{"forbidden key", strings.Replace(good, `"RowKey":"r"`, `"RowKey":"a/b"`, 1), "OutOfRangeInput"},
		{"duplicate entity", strings.Replace(good, `"RowKey":"100001"`, `"RowKey":"100000"`, 1), "appear twice"},
		{"short property", strings.Replace(good, `["On","Edm.Boolean","true"]`, `["On","Edm.Boolean"]`, 1), "[name, type, value]"},
		{"system property", strings.Replace(good, `["On","Edm.Boolean","true"]`, `["Timestamp","Edm.Boolean","true"]`, 1), "not a custom property"},
		{"bad property name", strings.Replace(good, `["On","Edm.Boolean","true"]`, `["O n","Edm.Boolean","true"]`, 1), "PropertyNameInvalid"},
		{"trailing text", good + `{}`, "text after"},
	}
	for _, tt := range tests {
		if tt.doc == good {
			t.Fatalf("%s: fixture did not change", tt.name)
		}
		s := newStore(t, "Keep")
		s.Apply("Keep", Op{Kind: Insert, Entity: ent("k", "k")})
		before := string(s.Snapshot())
		err := s.Restore([]byte(tt.doc))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want it to mention %q", tt.name, err, tt.want)
		}
		if string(s.Snapshot()) != before {
			t.Errorf("%s: state changed", tt.name)
		}
	}
}

// FuzzRestore: restoring never panics and never half-restores — the account
// is either the old one or exactly the document.
func FuzzRestore(f *testing.F) {
	f.Add(string(richStore(f).Snapshot()))
	f.Add(`{"format":"tableplay-account","version":1,"tables":[]}`)
	f.Add(`{"format":"tableplay-account","version":1,"tables":[{"name":"abc","created":"2020-01-01T00:00:00Z","entities":[{"PartitionKey":"","RowKey":"","Timestamp":"2020-01-01T00:00:00Z","properties":[["a","Edm.Double","NaN"]]}]}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, doc string) {
		s := newStore(t, "Keep")
		s.Apply("Keep", Op{Kind: Insert, Entity: ent("k", "k")})
		before := string(s.Snapshot())
		if err := s.Restore([]byte(doc)); err != nil {
			if string(s.Snapshot()) != before {
				t.Fatal("a failed restore changed the account")
			}
			return
		}
		// Restored: the snapshot restores again to itself.
		again := s.Snapshot()
		r := newStore(t)
		if err := r.Restore(again); err != nil {
			t.Fatalf("own snapshot does not restore: %v\n%s", err, again)
		}
		if string(r.Snapshot()) != string(again) {
			t.Fatal("snapshot not stable")
		}
	})
}
