package tablecsv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

func val(t *testing.T, typ edm.Type, text string) edm.Value {
	t.Helper()
	v, err := edm.ParseString(typ, text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sample(t *testing.T) []*entity.Entity {
	return []*entity.Entity{
		{PartitionKey: "p,1", RowKey: "r\"1\"", Timestamp: edm.Ticks(639000000000000001), Properties: []entity.Property{
			{Name: "Big", Value: val(t, edm.Int64, "9007199254740993")},
			{Name: "When", Value: val(t, edm.DateTime, "2026-11-22T12:34:56.1234567Z")},
			{Name: "Whole", Value: val(t, edm.Double, "20")},
			{Name: "Nan", Value: val(t, edm.Double, "NaN")},
			{Name: "Id", Value: val(t, edm.Guid, "c9da6455-213d-42c9-9a79-3e9149a57833")},
			{Name: "Blob", Value: val(t, edm.Binary, "AAEC/w==")},
			{Name: "Yes", Value: edm.BoolValue(true)},
			{Name: "N", Value: edm.Int32Value(-7)},
			{Name: "Text", Value: edm.StringValue("line one\r\nline \"two\", with comma\nand LF")},
			{Name: "Empty", Value: edm.StringValue("")},
		}},
		{PartitionKey: "p,1", RowKey: "r2", Properties: []entity.Property{
			{Name: "N", Value: edm.Int32Value(3)},
			{Name: "Other", Value: edm.StringValue(" spaced ")},
		}},
	}
}

// sameEntities reports whether two lists hold the same entities: keys,
// Timestamp and properties in order, values by edm.Value.Equal.
// reflect.DeepEqual cannot judge an edm.Value: it follows the pointer to a
// string's first byte and compares no further.
func sameEntities(a, b []*entity.Entity) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.PartitionKey != y.PartitionKey || x.RowKey != y.RowKey || x.Timestamp != y.Timestamp || len(x.Properties) != len(y.Properties) {
			return false
		}
		for j, p := range x.Properties {
			if q := y.Properties[j]; p.Name != q.Name || !p.Value.Equal(q.Value) {
				return false
			}
		}
	}
	return true
}

// TestSameEntitiesSeesEveryByte: the round-trip checks tell strings apart
// past their first byte.
func TestSameEntitiesSeesEveryByte(t *testing.T) {
	one := func(s string) []*entity.Entity {
		return []*entity.Entity{{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "S", Value: edm.StringValue(s)}}}}
	}
	if sameEntities(one("ab"), one("ac")) || !sameEntities(one("ab"), one("a"+"b")) {
		t.Fatal("sameEntities does not compare a string's every byte")
	}
}

// withoutTimestamps drops what import ignores.
func withoutTimestamps(es []*entity.Entity) []*entity.Entity {
	out := make([]*entity.Entity, len(es))
	for i, e := range es {
		out[i] = &entity.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Properties: e.Properties}
	}
	return out
}

func TestRoundTripIsExact(t *testing.T) {
	in := sample(t)
	text := Write(in)
	got, problems := Read(text)
	if problems != nil {
		t.Fatalf("problems: %v\n%s", problems, text)
	}
	if !sameEntities(got, withoutTimestamps(in)) {
		t.Fatalf("round trip changed the entities:\n got %v\nwant %v\n%s", got, withoutTimestamps(in), text)
	}
	if !strings.HasPrefix(text, "PartitionKey,RowKey,Timestamp,Big,Big@type,When,When@type,") {
		t.Errorf("header: %q", strings.SplitN(text, "\r\n", 2)[0])
	}
	if !strings.Contains(text, "9007199254740993,Edm.Int64,2026-11-22T12:34:56.1234567Z,Edm.DateTime,20.0,Edm.Double") {
		t.Errorf("values are not written exactly:\n%s", text)
	}
}

func TestReadsStorageExplorerVariants(t *testing.T) {
	cases := map[string]string{
		"BOM and CRLF":      "\ufeffPartitionKey,RowKey,Timestamp,N,N@type\r\np,r,2026-01-01T00:00:00Z,5,Int64\r\n",
		"LF, no Edm prefix": "PartitionKey,RowKey,N,N@type\np,r,5,int64\n",
		"Edm prefix":        "PartitionKey,RowKey,N,N@type\np,r,5,Edm.Int64",
		"quoted everything": "\"PartitionKey\",\"RowKey\",\"N\",\"N@type\"\r\n\"p\",\"r\",\"5\",\"Edm.Int64\"\r\n\r\n",
	}
	want := []*entity.Entity{{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "N", Value: edm.Int64Value(5)}}}}
	for name, text := range cases {
		got, problems := Read(text)
		if problems != nil || !sameEntities(got, want) {
			t.Errorf("%s: %v %v", name, got, problems)
		}
	}
}

func TestEmbeddedNewlinesAndQuotes(t *testing.T) {
	text := "PartitionKey,RowKey,Note\r\np,r,\"a \"\"b\"\"\r\nc,d\nend\"\r\n"
	got, problems := Read(text)
	if problems != nil {
		t.Fatal(problems)
	}
	if s := got[0].Properties[0].Value.Str(); s != "a \"b\"\r\nc,d\nend" {
		t.Fatalf("value %q", s)
	}
}

func TestProblemsByLineAndColumn(t *testing.T) {
	cases := []struct {
		name, text string
		want       Problem
	}{
		{"unknown type", "PartitionKey,RowKey,Geo,Geo@type\r\np,r,x,Edm.GeographyPoint\r\n",
			Problem{Line: 2, Column: "Geo@type", Message: `unknown type "Edm.GeographyPoint": use one of the eight Edm types`}},
		{"bad Int64", "PartitionKey,RowKey,N,N@type\np,r,1,Int32\np,s,9223372036854775808,Int64\n",
			Problem{Line: 3, Column: "N"}},
		{"fields", "PartitionKey,RowKey,N\np,r\n", Problem{Line: 2, Message: "2 fields where the header has 3"}},
		{"no RowKey", "PartitionKey,N\np,1\n", Problem{Line: 1, Column: "RowKey", Message: "the header has no RowKey column"}},
		{"orphan type", "PartitionKey,RowKey,N@type\np,r,Int32\n", Problem{Line: 1, Column: "N@type", Message: "a type column must follow its value column N"}},
		{"duplicate keys", "PartitionKey,RowKey\np,r\np,r\n", Problem{Line: 3, Column: "RowKey", Message: "the same PartitionKey and RowKey as line 2"}},
		{"key rule", "PartitionKey,RowKey\np/x,r\n", Problem{Line: 2, Column: "PartitionKey", Code: "OutOfRangeInput"}},
		{"property name rule", "PartitionKey,RowKey,1bad\np,r,x\n", Problem{Line: 2, Column: "1bad"}},
		{"unclosed quote", "PartitionKey,RowKey\np,\"r\n", Problem{Line: 2, Message: "a quoted field is not closed"}},
		{"stray quote", "PartitionKey,RowKey\np,r\"x\n", Problem{Line: 2, Message: "a quote inside an unquoted field (quote the field and double the quote)"}},
		{"text after quote", "PartitionKey,RowKey\np,\"r\"x\n", Problem{Line: 2, Message: "text after a closing quote (quotes inside a field are doubled)"}},
		{"empty", "", Problem{Line: 1, Message: "the file is empty: it needs a header with PartitionKey and RowKey"}},
	}
	for _, c := range cases {
		got, problems := Read(c.text)
		if got != nil || len(problems) == 0 {
			t.Errorf("%s: accepted (%v)", c.name, got)
			continue
		}
		p := problems[0]
		if p.Line != c.want.Line || p.Column != c.want.Column || c.want.Message != "" && p.Message != c.want.Message || c.want.Code != "" && p.Code != c.want.Code {
			t.Errorf("%s: got %+v, want %+v", c.name, p, c.want)
		}
	}
}

// TestAllOrNothing: one bad row among good ones rejects the file and names
// every bad row.
func TestAllOrNothing(t *testing.T) {
	text := "PartitionKey,RowKey,N,N@type\np,1,1,Int32\np,2,x,Int32\np,3,3,Int32\np,4,4.5,Int32\n"
	got, problems := Read(text)
	if got != nil {
		t.Fatalf("entities returned with problems: %v", got)
	}
	if len(problems) != 2 || problems[0].Line != 3 || problems[1].Line != 5 {
		t.Fatalf("problems: %+v", problems)
	}
}

func TestBounds(t *testing.T) {
	if _, p := Read(strings.Repeat("a", MaxBytes+1)); p == nil || !strings.Contains(p[0].Message, "larger than") {
		t.Errorf("oversized file: %v", p)
	}
	wide := "PartitionKey,RowKey" + strings.Repeat(",x", MaxColumns) + "\n"
	if _, p := Read(wide); p == nil || !strings.Contains(p[0].Message, "columns") {
		t.Errorf("too many columns: %v", p)
	}
	var b strings.Builder
	b.WriteString("PartitionKey,RowKey\n")
	for i := 0; i <= MaxRows+1; i++ {
		fmt.Fprintf(&b, "p,%d\n", i)
	}
	if _, p := Read(b.String()); p == nil || !strings.Contains(p[0].Message, "rows") {
		t.Errorf("too many rows: %v", p)
	}
	var many strings.Builder
	many.WriteString("PartitionKey,RowKey,N,N@type\n")
	for i := 0; i < 2*MaxProblems; i++ {
		fmt.Fprintf(&many, "p,%d,x,Int32\n", i)
	}
	if _, p := Read(many.String()); len(p) != MaxProblems {
		t.Errorf("%d problems reported, want at most %d", len(p), MaxProblems)
	}
}

// FuzzRead: any text is either rejected with problems or read into entities
// that write out and read back unchanged.
func FuzzRead(f *testing.F) {
	f.Add("PartitionKey,RowKey,N,N@type\r\np,r,5,Edm.Int64\r\n")
	f.Add("\ufeffPartitionKey,RowKey,T\n\"p\",\"r\",\"a\"\"\r\nb\"\n")
	f.Add("PartitionKey,RowKey,Timestamp,D,D@type\np,r,x,2026-11-22T12:34:56.1234567Z,DateTime\n")
	f.Add("PartitionKey,RowKey,B,B@type\np,r,AAEC/w==,Binary\np,s,,\n")
	f.Fuzz(func(t *testing.T, text string) {
		got, problems := Read(text)
		if (got == nil) == (problems == nil) && len(got) > 0 {
			t.Fatalf("both entities and problems: %v %v", got, problems)
		}
		if problems != nil {
			for _, p := range problems {
				if p.Line < 1 || p.Message == "" {
					t.Fatalf("problem without a place or reason: %+v", p)
				}
			}
			return
		}
		again, problems := Read(Write(got))
		if problems != nil {
			t.Fatalf("written file does not read back: %v\n%q", problems, Write(got))
		}
		if len(got) > 0 && !sameEntities(again, got) {
			t.Fatalf("round trip changed the entities:\n%v\n%v", got, again)
		}
	})
}
