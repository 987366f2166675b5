package xmlbody

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// TestACLRoundTrip: what ACL writes, ParseACL reads back to the same
// policies, escaped text and 7-digit times included.
func TestACLRoundTrip(t *testing.T) {
	start := edm.TicksFromTime(time.Date(2026, 1, 2, 3, 4, 5, 123456700, time.UTC))
	expiry := start + 1
	ids := []store.SignedIdentifier{
		{ID: "a<&>\"'b", HasPolicy: true, Start: &start, Expiry: &expiry, Permission: "raud"},
		{ID: "read-only", HasPolicy: true, Permission: "r"},
		{ID: "bare"},
	}
	body := ACL(ids)
	if !strings.HasPrefix(string(body), head) || !strings.Contains(string(body), "<Start>2026-01-02T03:04:05.1234567Z</Start>") {
		t.Fatalf("ACL body %q", body)
	}
	got, err := ParseACL(body)
	if err != nil || !reflect.DeepEqual(got, ids) {
		t.Fatalf("ParseACL(ACL(ids)) = %+v, %v; want %+v", got, err, ids)
	}
	if got, err := ParseACL(ACL(nil)); err != nil || len(got) != 0 {
		t.Fatalf("empty list: %+v, %v", got, err)
	}
}

// TestPropertiesRoundTrip: what Properties writes, MergeProperties reads
// back to the same settings over any current ones.
func TestPropertiesRoundTrip(t *testing.T) {
	yes := true
	p := store.ServiceProperties{
		Logging:       store.Logging{Version: "1.0", Read: true, Delete: true, RetentionEnabled: true, RetentionDays: 7},
		HourMetrics:   store.Metrics{Version: "1.0", Enabled: true, IncludeAPIs: &yes, RetentionEnabled: true, RetentionDays: 365},
		MinuteMetrics: store.Metrics{Version: "1.0"},
		Cors: []store.CorsRule{{AllowedOrigins: "https://a.example", AllowedMethods: "GET,PUT", AllowedHeaders: "x-ms-*",
			ExposedHeaders: "&<>", MaxAgeInSeconds: 60}},
	}
	cur := store.ServiceProperties{Logging: store.Logging{Write: true}, Cors: []store.CorsRule{{AllowedOrigins: "*", AllowedMethods: "GET"}}}
	got, err := MergeProperties(cur, Properties(p))
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Fatalf("MergeProperties(Properties(p)) = %+v, %v; want %+v", got, err, p)
	}
}

// TestErrorBody: the XML error body carries the code and, escaped, the
// message with the request's id and time.
func TestErrorBody(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got := string(Error(tableerr.New(tableerr.InvalidXMLDocument), "id<1>", now))
	want := head + "<Error><Code>InvalidXmlDocument</Code><Message>"
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "&#xA;RequestId:id&lt;1&gt;&#xA;Time:2026-01-02T03:04:05.0000000Z</Message></Error>") {
		t.Fatalf("Error body %q", got)
	}
	if s := string(Stats(now)); !strings.Contains(s, "<LastSyncTime>Fri, 02 Jan 2026 03:04:05 GMT</LastSyncTime>") {
		t.Fatalf("Stats body %q", s)
	}
}
