package play

import (
	"testing"
)

func TestEditBodyKeepsTheText(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	text := "{\n    \"PartitionKey\": \"p\",   \"RowKey\": \"r\",\n  \"Ratio\": 2.50,\n  \"Odd.Name\": 1,\n  \"Big@odata.type\": \"Edm.Int64\", \"Big\": \"7\",\n  \"Gone\": true\n}"
	draft := func(rows ...Row) Draft {
		return Draft{PartitionKey: ptr("p"), RowKey: ptr("r"), Properties: rows}
	}
	ratio := Row{Name: "Ratio", Type: "Edm.Double", Text: "2.5"}
	odd := Row{Name: "Odd.Name", Type: "Edm.Int32", Text: "1"}
	big := Row{Name: "Big", Type: "Edm.Int64", Text: "7"}
	gone := Row{Name: "Gone", Type: "Edm.Boolean", Text: "true"}
	for _, c := range []struct {
		name  string
		draft Draft
		want  string
	}{
		{"nothing changed", draft(ratio, odd, big, gone), text},
		{"one value", draft(ratio, Row{Name: "Odd.Name", Type: "Edm.Int32", Text: "5"}, big, gone),
			"{\n    \"PartitionKey\": \"p\",   \"RowKey\": \"r\",\n  \"Ratio\": 2.50,\n  \"Odd.Name\": 5,\n  \"Big@odata.type\": \"Edm.Int64\", \"Big\": \"7\",\n  \"Gone\": true\n}"},
		{"a type picked", draft(ratio, odd, Row{Name: "Big", Type: "Edm.Int32", Text: "7"}, gone),
			"{\n    \"PartitionKey\": \"p\",   \"RowKey\": \"r\",\n  \"Ratio\": 2.50,\n  \"Odd.Name\": 1, \"Big\": 7,\n  \"Gone\": true\n}"},
		{"a row removed", draft(ratio, odd, big),
			"{\n    \"PartitionKey\": \"p\",   \"RowKey\": \"r\",\n  \"Ratio\": 2.50,\n  \"Odd.Name\": 1,\n  \"Big@odata.type\": \"Edm.Int64\", \"Big\": \"7\"\n}"},
		{"a row added and a key changed", Draft{PartitionKey: ptr("q"), RowKey: ptr("r"), Properties: []Row{ratio, odd, big, gone, {Name: "When", Type: "Edm.DateTime", Text: "2024-01-02T03:04:05Z"}}},
			"{\n    \"PartitionKey\": \"q\",   \"RowKey\": \"r\",\n  \"Ratio\": 2.50,\n  \"Odd.Name\": 1,\n  \"Big@odata.type\": \"Edm.Int64\", \"Big\": \"7\",\n  \"Gone\": true\n,\"When\":\"2024-01-02T03:04:05Z\",\"When@odata.type\":\"Edm.DateTime\"}"},
	} {
		got := decode[map[string]string](t, a.EditBody(text, mustJSON(c.draft)))
		if got["body"] != c.want {
			t.Errorf("%s:\n got %q\nwant %q (%s)", c.name, got["body"], c.want, got["error"])
		}
	}
	if got := decode[map[string]string](t, a.EditBody("{not json", mustJSON(draft()))); got["error"] == "" {
		t.Errorf("unreadable text: %v", got)
	}
}
