package play

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzCompare: any two answers (an endpoint's may be hostile) are compared
// without a panic, into valid JSON listing at most maxDifferences
// unexpected and maxExpected expected differences.
func FuzzCompare(f *testing.F) {
	f.Add(`{"value":[{"A":1,"Timestamp":"x"}]}`, `{"value":[{"A":2}]}`, 200, 404)
	f.Add(`{"a":{"b":[1,2,{"c":null}]}}`, `[`, 201, 201)
	f.Add(strings.Repeat(`{"a":`, 200)+"1"+strings.Repeat("}", 200), `{}`, 200, 200)
	f.Fuzz(func(t *testing.T, a, b string, sa, sb int) {
		in, _ := json.Marshal(map[string]any{
			"endpoint": map[string]any{"status": sa, "headers": [][2]string{{"ETag", a}}, "body": a},
			"engine":   map[string]any{"status": sb, "headers": [][2]string{{"Location", b}}, "body": b},
		})
		var c Comparison
		if err := json.Unmarshal(Compare(in), &c); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if len(c.Differences) > maxDifferences+maxExpected {
			t.Fatalf("%d differences listed", len(c.Differences))
		}
	})
}

// FuzzConnect: any connection is refused with a reason or builds signed
// requests, never panics.
func FuzzConnect(f *testing.F) {
	f.Add("http://h/devstoreaccount1", "", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==", "")
	f.Add("https://a.table.core.windows.net/", "a", "", "?sv=2019-02-02&sig=x")
	f.Add("http://[::1]:1/%zz", "", "", "sig=%")
	f.Fuzz(func(t *testing.T, endpoint, account, key, sas string) {
		r, err := Connect(Connection{Endpoint: endpoint, Account: account, Key: key, SAS: sas}, func() time.Time { return at })
		if err != nil {
			return
		}
		if _, msg := r.API.Build(Operation{Kind: "listTables"}); msg != "" && !strings.HasPrefix(msg, "bad base URL") {
			t.Fatalf("connected but cannot build: %s", msg)
		}
	})
}

// BenchmarkCompareQueryPage compares two answers of 1,000 entities each
// (a query's largest page), every entity's Timestamp different: the bound
// on one comparison.
func BenchmarkCompareQueryPage(b *testing.B) {
	page := func(ts string) string {
		var s strings.Builder
		s.WriteString(`{"odata.metadata":"http://a/x/$metadata#T","value":[`)
		for i := range 1000 {
			if i > 0 {
				s.WriteByte(',')
			}
			fmt.Fprintf(&s, `{"odata.etag":"W/\"%s\"","PartitionKey":"p","RowKey":"r%04d","Timestamp":"%s","Name":"%s","N":%d}`, ts, i, ts, strings.Repeat("x", 200), i)
		}
		s.WriteString("]}")
		return s.String()
	}
	in, _ := json.Marshal(map[string]any{
		"endpoint": map[string]any{"status": 200, "body": page("2026-01-01T00:00:00Z")},
		"engine":   map[string]any{"status": 200, "body": page("2026-01-02T00:00:00Z")},
	})
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Compare(in)
	}
}
