package docscheck

import (
	"fmt"
	"strings"
	"testing"
)

// sharedStart is a document of n query examples on one src= start state,
// with an insert that writes (a new entity) after the query numbered at.
func sharedStart(n, at int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<table-playground view="query" src="orders.json"
  expect='{"status": 200, "returned": 1, "rowKeys": ["a"]}'>
<script type="application/json">{"table": "Orders", "filter": "PartitionKey eq '2024' and Total gt 100"}</script>
</table-playground>
`)
		if i == at {
			fmt.Fprintf(&b, `<table-playground src="orders.json" expect='{"kind": "insert", "status": 201}'>
<script type="application/json">{"table": "Orders", "entity": {"PartitionKey": "2024", "RowKey": "z", "Total": 500.5}}</script>
</table-playground>
`)
		}
	}
	return b.String()
}

// TestSharedStartRestoredOnce: examples sharing one start state's bytes
// restore it once, counted through Restored; an example that writes makes
// the next one restore it afresh (and so still see the start state, not
// the written entity: the queries would otherwise return 2 rows).
func TestSharedStartRestoredOnce(t *testing.T) {
	for _, tc := range []struct {
		name     string
		at       int
		restores int
	}{
		{"only reads", -1, 1},
		{"a write in the middle", 9, 2}, // the queries and the insert share one; the queries after it need another
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := checker(t)
			restores := 0
			c.Restored = func() { restores++ }
			n, problems := c.Check("testdata/shared.md", []byte(sharedStart(20, tc.at)))
			if len(problems) != 0 {
				t.Fatalf("problems %v", problems)
			}
			if want := 20; tc.at >= 0 {
				want++
				if n != want {
					t.Fatalf("%d examples, want %d", n, want)
				}
			} else if n != want {
				t.Fatalf("%d examples, want %d", n, want)
			}
			if restores != tc.restores {
				t.Fatalf("%d restores for %d examples, want %d", restores, n, tc.restores)
			}
		})
	}
}

// TestDifferentStartsNotShared: two start states of different bytes are
// each restored, and each example sees its own.
func TestDifferentStartsNotShared(t *testing.T) {
	c := checker(t)
	restores := 0
	c.Restored = func() { restores++ }
	doc := sharedStart(3, -1) + strings.ReplaceAll(sharedStart(3, -1), `src="orders.json"`, `state='{"account": {"format": "tableplay-account", "version": 1, "tables": [{"name": "Orders", "created": "2026-01-02T03:04:05Z", "entities": [{"PartitionKey": "2024", "RowKey": "a", "Timestamp": "2026-01-02T03:04:05Z", "properties": [["Total", "Edm.Double", "120.5"]]}]}]}, "table": "Orders", "filter": "PartitionKey eq &apos;2024&apos; and Total gt 100"}'`)
	_, problems := c.Check("testdata/shared.md", []byte(doc))
	if len(problems) != 0 {
		t.Fatalf("problems %v", problems)
	}
	if restores != 2 {
		t.Fatalf("%d restores, want 2", restores)
	}
}
