package codegen_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/play"
)

// TestCSharpGolden compares generated C# with files written by hand from
// Azure.Data.Tables' documented API: no .NET toolchain is available here to
// compile or run it.
func TestCSharpGolden(t *testing.T) {
	const etag = `W/"datetime'2026-11-22T12%3A00%3A00Z'"`
	cases := map[string]pageOp{
		"insert.cs": entityOp("insert", allTypes("p9", "new")),
		"query.cs": {Kind: "query", Table: "Demo", Filter: sp("PartitionKey eq 'p1' and RowKey ge 'r2'"),
			Select: sp("PartitionKey,RowKey,N,Label"), Top: 2},
		"delete-etag.cs": {Kind: "delete", Table: "Demo", Entity: ptr(keyed("p1", "r1")), IfMatch: etag},
		"batch.cs": {Kind: "batch", Operations: []pageOp{
			entityOp("insertOrMerge", small("p1", "b2", "21")),
			{Kind: "replace", Table: "Demo", Entity: ptr(small("p1", "r2", "20")), IfMatch: etag},
			entityOp("delete", keysOnly("p1", "r4")),
		}},
	}
	for file, o := range cases {
		t.Run(file, func(t *testing.T) {
			b, _ := json.Marshal(o)
			typed, err := play.TypedOperation(b)
			if err != nil {
				t.Fatal(err)
			}
			s, err := codegen.For(typed, codegen.CSharp, codegen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "csharp", file))
			if err != nil {
				t.Fatal(err)
			}
			if s.Code != string(want) {
				t.Errorf("generated C# differs from %s:\n%s", file, s.Code)
			}
		})
	}
	seen, _ := filepath.Glob(filepath.Join("testdata", "csharp", "*.cs"))
	if len(seen) != len(cases) {
		t.Errorf("%d golden files for %d cases", len(seen), len(cases))
	}
}
