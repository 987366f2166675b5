package play

import "testing"

func TestFilterExample(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for _, c := range []struct{ draft, want string }{
		{`null`, "PartitionKey eq 'p1' and RowKey ge 'a'"},
		{`{"PartitionKey":"o'neil","RowKey":"r","properties":[{"name":"Name","type":"Edm.String","text":"x"},{"name":"Big","type":"Edm.Int64","text":"9007199254740993"}]}`,
			"PartitionKey eq 'o''neil' and Big ge 9007199254740993L"},
		{`{"PartitionKey":"p","RowKey":"r","properties":[{"name":"Ratio","type":"Edm.Double","text":"2"}]}`, "PartitionKey eq 'p' and Ratio ge 2.0"},
		{`{"PartitionKey":"p","RowKey":"r","properties":[{"name":"Name","type":"","text":"it's"}]}`, "PartitionKey eq 'p' and Name ge 'it''s'"},
		// A name the grammar cannot write, or a value that does not parse: the key alone.
		{`{"PartitionKey":"p","RowKey":"r","properties":[{"name":"2nd","type":"Edm.Int32","text":"1"}]}`, "PartitionKey eq 'p'"},
		{`{"PartitionKey":"p","RowKey":"r","properties":[{"name":"N","type":"Edm.Int32","text":"x"}]}`, "PartitionKey eq 'p'"},
		{`{"PartitionKey":"p","RowKey":"r","properties":[]}`, "PartitionKey eq 'p'"},
	} {
		got := decode[map[string]string](t, a.FilterExample([]byte(c.draft)))["filter"]
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.draft, got, c.want)
		}
	}
}
