package entity

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/tableerr"
)

func str(name, v string) Field { return Field{Name: name, Value: edm.StringValue(v)} }

func keys(extra ...Field) Draft {
	return Draft{Fields: append([]Field{str("PartitionKey", "pk"), str("RowKey", "rk")}, extra...)}
}

func codeOf(e *tableerr.Error) tableerr.Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func TestTableNames(t *testing.T) {
	tests := []struct {
		name string
		want tableerr.Code
		rule string
	}{
		{"mytable", "", ""},
		{"abc", "", ""},
		{"MyTable123", "", ""},
		{strings.Repeat("a", 63), "", ""},
		{strings.Repeat("a", 64), tableerr.OutOfRangeInput, "table-name-too-long"},
		{"ab", tableerr.OutOfRangeInput, "table-name-too-short"},
		{"", tableerr.OutOfRangeInput, "table-name-too-short"},
		{"1table", tableerr.InvalidResourceName, "table-name-characters"},
		{"my-table", tableerr.InvalidResourceName, "table-name-characters"},
		{"my_table", tableerr.InvalidResourceName, "table-name-characters"},
		{"啊齄丂狛狜", tableerr.InvalidResourceName, "table-name-characters"}, // live recording
		{"tables", tableerr.InvalidInput, "table-name-reserved"},
		{"TaBlEs", tableerr.InvalidInput, "table-name-reserved"},
	}
	for _, tt := range tests {
		e := CheckTableName(tt.name)
		if codeOf(e) != tt.want {
			t.Errorf("CheckTableName(%q) = %v, want %s", tt.name, e, tt.want)
			continue
		}
		if e != nil && e.Rule.ID != tt.rule {
			t.Errorf("CheckTableName(%q) rule %s, want %s", tt.name, e.Rule.ID, tt.rule)
		}
	}
	e := CheckTableName("ab")
	if e.Message != "The specified resource name length is not within the permissible limits." || e.Rule.Measure.Value != 2 || e.Rule.Measure.Limit != 3 {
		t.Errorf("short name: %q %+v", e.Message, e.Rule.Measure)
	}
	if CheckTableName("1a").Status != 400 {
		t.Error("status")
	}
	if got := len(TableNameViolations("1-")); got != 2 {
		t.Errorf("'1-' has %d violations, want 2 (length and characters)", got)
	}
}

func TestPropertyNames(t *testing.T) {
	valid := []string{"a", "_", "_a1", "Name", "ÄÖÜ", "名前", "a\u0301", "x_y", "ǅ", "Ⅻ", strings.Repeat("n", 255)}
	for _, n := range valid {
		if _, err := Build(keys(str(n, "v"))); err != nil {
			t.Errorf("name %q: %v", n, err)
		}
	}
	invalid := map[string]tableerr.Code{
		"123":                    tableerr.PropertyNameInvalid, // live recording
		"1a":                     tableerr.PropertyNameInvalid,
		"a-b":                    tableerr.PropertyNameInvalid,
		"a b":                    tableerr.PropertyNameInvalid,
		"a.b":                    tableerr.PropertyNameInvalid,
		"":                       tableerr.PropertyNameInvalid,
		"a@b":                    tableerr.PropertyNameInvalid,
		"😀":                      tableerr.PropertyNameInvalid,
		strings.Repeat("n", 256): tableerr.PropertyNameTooLong,
	}
	for n, want := range invalid {
		_, err := Build(keys(str(n, "v")))
		if codeOf(err) != want {
			t.Errorf("name %q: %v, want %s", n, err, want)
		}
	}
	_, err := Build(keys(str(strings.Repeat("n", 256), "v")))
	if m := err.Rule.Measure; m.Value != 256 || m.Limit != 255 {
		t.Errorf("too long measure %+v", m)
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		name  string
		draft Draft
		want  tableerr.Code
		msg   string
	}{
		{"missing both", Draft{Fields: []Field{str("a", "b")}}, tableerr.PropertiesNeedValue, "The values are not specified for all properties in the entity."},
		{"missing RowKey", Draft{Fields: []Field{str("PartitionKey", "p")}}, tableerr.PropertiesNeedValue, ""},
		{"null PartitionKey", Draft{Fields: []Field{{Name: "PartitionKey", Null: true}, str("RowKey", "r")}}, tableerr.PropertiesNeedValue, ""},
		{"numeric RowKey", Draft{Fields: []Field{str("PartitionKey", "p"), {Name: "RowKey", Value: edm.Int32Value(1)}}}, tableerr.InvalidInput, "One of the request inputs is not valid."},
		{"slash", Draft{Fields: []Field{str("PartitionKey", "a/b"), str("RowKey", "r")}}, tableerr.OutOfRangeInput, "The 'PartitionKey' parameter of value 'a/b' is out of range."},
		{"backslash", Draft{Fields: []Field{str("PartitionKey", "p"), str("RowKey", `a\b`)}}, tableerr.OutOfRangeInput, `The 'RowKey' parameter of value 'a\b' is out of range.`},
		{"hash", keysWith("a#"), tableerr.OutOfRangeInput, ""},
		{"question", keysWith("?"), tableerr.OutOfRangeInput, ""},
		{"tab", keysWith("a\tb"), tableerr.OutOfRangeInput, ""},
		{"DEL", keysWith("\x7f"), tableerr.OutOfRangeInput, ""},
		{"C1 control", keysWith("\u0085"), tableerr.OutOfRangeInput, ""},
		{"512 units", keysWith(strings.Repeat("k", 512)), "", ""},
		{"513 units", keysWith(strings.Repeat("k", 513)), tableerr.PropertyValueTooLarge, ""},
		{"256 emoji = 512 units", keysWith(strings.Repeat("😀", 256)), "", ""},
		{"256 emoji + 1 = 513 units", keysWith(strings.Repeat("😀", 256) + "k"), tableerr.PropertyValueTooLarge, ""},
		{"empty keys allowed", Draft{Fields: []Field{str("PartitionKey", ""), str("RowKey", "")}}, "", ""},
		{"percent and plus allowed", keysWith("a%b+c"), "", ""},
	}
	for _, tt := range tests {
		_, err := Build(tt.draft)
		if codeOf(err) != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
			continue
		}
		if tt.msg != "" && err.Message != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, err.Message, tt.msg)
		}
	}
}

func keysWith(rk string) Draft {
	return Draft{Fields: []Field{str("PartitionKey", "p"), str("RowKey", rk)}}
}

func TestValueSizes(t *testing.T) {
	tests := []struct {
		name string
		v    edm.Value
		want tableerr.Code
	}{
		{"32767 units", edm.StringValue(strings.Repeat("a", 32767)), ""},
		{"32768 units", edm.StringValue(strings.Repeat("a", 32768)), tableerr.PropertyValueTooLarge},
		{"16384 emoji = 32768 units", edm.StringValue(strings.Repeat("😀", 16384)), tableerr.PropertyValueTooLarge},
		{"16383 emoji + 1 = 32767 units", edm.StringValue(strings.Repeat("😀", 16383) + "a"), ""},
		{"65536 bytes", edm.BinaryValue(make([]byte, 65536)), ""},
		{"65537 bytes", edm.BinaryValue(make([]byte, 65537)), tableerr.PropertyValueTooLarge},
	}
	for _, tt := range tests {
		_, err := Build(keys(Field{Name: "v", Value: tt.v}))
		if codeOf(err) != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
	}
	_, err := Build(keys(Field{Name: "v", Value: edm.StringValue(strings.Repeat("a", 32768))}))
	if m := err.Rule.Measure; m.Value != 32768 || m.Limit != 32767 || m.Unit != "UTF-16 code units" || !err.Rule.Disputed {
		t.Errorf("string rule %+v %+v", err.Rule, m)
	}
}

func TestPropertyCount(t *testing.T) {
	many := func(n int) Draft {
		d := keys()
		for i := 0; i < n; i++ {
			d.Fields = append(d.Fields, Field{Name: "p" + strconv.Itoa(i), Value: edm.Int32Value(int32(i))})
		}
		return d
	}
	if _, err := Build(many(252)); err != nil {
		t.Errorf("252 custom properties: %v", err)
	}
	_, err := Build(many(253))
	if codeOf(err) != tableerr.TooManyProperties {
		t.Fatalf("253 custom properties: %v", err)
	}
	if m := err.Rule.Measure; m.Value != 256 || m.Limit != 255 {
		t.Errorf("measure %+v", m)
	}
	r := Check(many(252))
	if r.Count != 255 {
		t.Errorf("count %d", r.Count)
	}
}

func TestEntitySize(t *testing.T) {
	// Keys "pk","rk": 4 + 2×4 = 12. Each 32,767-unit string named "sNN"
	// (3 chars) costs 8 + 6 + 2×32767 + 4 = 65,552. Sixteen of them: 1,048,832,
	// over the limit. Fill to exactly 1,048,576 with fifteen strings plus one
	// binary: 12 + 15×65,552 = 983,292; a binary named "b" costs 8 + 2 + n + 4,
	// so n = 1,048,576 − 983,292 − 14 = 65,270.
	d := keys()
	for i := 0; i < 15; i++ {
		d.Fields = append(d.Fields, Field{Name: "s" + strconv.Itoa(10+i), Value: edm.StringValue(strings.Repeat("x", 32767))})
	}
	at := append(append([]Field(nil), d.Fields...), Field{Name: "b", Value: edm.BinaryValue(make([]byte, 65270))})
	r := Check(Draft{Fields: at})
	if r.Size != 1048576 || len(r.Violations) != 0 {
		t.Fatalf("at the limit: size %d, violations %v", r.Size, r.Violations)
	}
	over := append(append([]Field(nil), d.Fields...), Field{Name: "b", Value: edm.BinaryValue(make([]byte, 65271))})
	_, err := Build(Draft{Fields: over})
	if codeOf(err) != tableerr.EntityTooLarge || err.Rule.Measure.Value != 1048577 || err.Rule.Measure.Limit != 1048576 {
		t.Fatalf("one byte over: %v %+v", err, err.Rule)
	}
	if err.Message != "The entity is larger than the maximum allowed size (1MB)." {
		t.Errorf("message %q", err.Message)
	}
}

// TestWholeBeforePart: 127 strings of 32,768 units each break both the
// string rule and the entity size; the service answers EntityTooLarge (the
// live answer Azurite's table tests quote), so the entity's size is checked
// first and the card for each string follows (F-SIZE-ORDER).
func TestWholeBeforePart(t *testing.T) {
	d := keys()
	for i := 0; i < 127; i++ {
		d.Fields = append(d.Fields, Field{Name: "p" + strconv.Itoa(100+i), Value: edm.StringValue(strings.Repeat("x", 32768))})
	}
	r := Check(d)
	if len(r.Violations) != 128 {
		t.Fatalf("%d violations, want 128 (the entity, then each string)", len(r.Violations))
	}
	if r.Violations[0].Code != tableerr.EntityTooLarge || r.Violations[1].Code != tableerr.PropertyValueTooLarge {
		t.Errorf("first two: %v, %v", r.Violations[0], r.Violations[1])
	}
	if _, err := Build(d); codeOf(err) != tableerr.EntityTooLarge {
		t.Errorf("Build = %v, want EntityTooLarge", err)
	}
	// Under the entity limit, a single long string is still refused.
	one := keys(Field{Name: "s", Value: edm.StringValue(strings.Repeat("x", 32768))})
	if _, err := Build(one); codeOf(err) != tableerr.PropertyValueTooLarge {
		t.Errorf("one long string: %v", err)
	}
}

func TestOrderOfViolations(t *testing.T) {
	// One violation of every stage, given in reverse order.
	d := Draft{Fields: []Field{
		{Name: "big", Value: edm.StringValue(strings.Repeat("a", 32768))},
		{Name: "bad", Err: &edm.ParseError{Type: edm.Guid, Text: "x", Problem: edm.Malformed, Reason: "not a GUID"}},
		{Name: "1name", Value: edm.Int32Value(1)},
		str("PartitionKey", "a/b"),
		str("RowKey", "r"),
		{Name: "big", Value: edm.Int32Value(2)},
	}}
	r := Check(d)
	var got []tableerr.Code
	for _, v := range r.Violations {
		got = append(got, v.Code)
	}
	want := []tableerr.Code{tableerr.DuplicatePropertiesSpecified, tableerr.OutOfRangeInput, tableerr.PropertyNameInvalid, tableerr.InvalidInput, tableerr.PropertyValueTooLarge}
	if strings.Join(codes(got), ",") != strings.Join(codes(want), ",") {
		t.Errorf("order %v, want %v", got, want)
	}
	if _, err := Build(d); err.Code != tableerr.DuplicatePropertiesSpecified {
		t.Errorf("Build first = %v", err)
	}
}

func codes(cs []tableerr.Code) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

func TestValueErrors(t *testing.T) {
	tests := []struct {
		err  error
		code tableerr.Code
		msg  string
	}{
		{&edm.ParseError{Type: edm.Int64, Problem: edm.Overflow}, tableerr.InvalidInput, "An error occurred while processing this request."},
		{&edm.ParseError{Type: edm.Int64, Problem: edm.Malformed}, tableerr.InvalidInput, "One of the request inputs is not valid."},
		{&edm.ParseError{Type: edm.DateTime, Problem: edm.OutOfRange}, tableerr.OutOfRangeInput, "One of the request inputs is out of range."},
		{&edm.ParseError{Problem: edm.UnknownType}, tableerr.InvalidInput, "One of the request inputs is not valid."},
	}
	for _, tt := range tests {
		_, err := Build(keys(Field{Name: "v", Err: tt.err}))
		if codeOf(err) != tt.code || err.Message != tt.msg {
			t.Errorf("%v → %v", tt.err, err)
		}
	}
	// A bare JSON number annotated Edm.Int64 is refused with a disputed card
	// (F-INT64-QUOTED).
	_, perr := edm.FromJSON(edm.JSONNumber, "12", "Edm.Int64")
	_, err := Build(keys(Field{Name: "big", Err: perr}))
	if codeOf(err) != tableerr.InvalidInput || err.Rule == nil || err.Rule.ID != "int64-unquoted" || !err.Rule.Disputed || !strings.Contains(err.Rule.Dispute, "F-INT64-QUOTED") {
		t.Errorf("unquoted Int64 → %+v", err)
	}
}

func TestIgnoredAndNull(t *testing.T) {
	e, err := Build(keys(
		Field{Name: "Timestamp", Value: edm.StringValue("0001-01-01T00:00:00Z")},
		Field{Name: "odata.etag", Value: edm.StringValue("x")},
		Field{Name: "gone", Null: true},
		str("kept", "v"),
	))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Properties) != 1 || e.Properties[0].Name != "kept" {
		t.Errorf("properties %+v", e.Properties)
	}
}

func TestMergeAndLimits(t *testing.T) {
	base, _ := Build(keys(str("a", "1"), str("b", "2")))
	patch, _ := Build(keys(Field{Name: "b", Value: edm.Int32Value(3)}, str("c", "4")))
	m := base.Merge(patch)
	if len(m.Properties) != 3 || m.Properties[1].Value.Type() != edm.Int32 || m.Properties[2].Name != "c" {
		t.Errorf("merged %+v", m.Properties)
	}
	if len(base.Properties) != 2 || base.Properties[1].Value.Type() != edm.String {
		t.Error("merge changed its receiver")
	}
	if v, ok := m.Get("PartitionKey"); !ok || v.Str() != "pk" {
		t.Error("Get PartitionKey")
	}
	if _, ok := m.Get("zzz"); ok {
		t.Error("Get missing")
	}
	// Two halves of 200 properties each are fine alone but too many merged.
	var f1, f2 []Field
	for i := 0; i < 200; i++ {
		f1 = append(f1, Field{Name: "x" + strconv.Itoa(i), Value: edm.BoolValue(true)})
		f2 = append(f2, Field{Name: "y" + strconv.Itoa(i), Value: edm.BoolValue(true)})
	}
	a, _ := Build(keys(f1...))
	b, _ := Build(keys(f2...))
	if CheckLimits(a) != nil || codeOf(CheckLimits(a.Merge(b))) != tableerr.TooManyProperties {
		t.Error("CheckLimits on a merge result")
	}
}

// A merged entity, which the store keeps, holds exactly its properties:
// no spare room left by appending the patch's new names.
func TestMergeHoldsNoSpareRoom(t *testing.T) {
	base := &Entity{PartitionKey: "p", RowKey: "r", Properties: []Property{
		{Name: "A", Value: edm.Int32Value(1)}, {Name: "B", Value: edm.StringValue("b")}}}
	patch := &Entity{Properties: []Property{
		{Name: "B", Value: edm.BoolValue(true)}, {Name: "C", Value: edm.Int64Value(3)}, {Name: "D", Value: edm.StringValue("d")}}}
	m := base.Merge(patch)
	if len(m.Properties) != 4 || cap(m.Properties) != 4 {
		t.Fatalf("merged: %d properties in room for %d, want 4 in 4", len(m.Properties), cap(m.Properties))
	}
	if v, _ := m.Get("B"); v.Type() != edm.Boolean || !v.Bool() {
		t.Fatalf("B = %v, want the patch's true", v)
	}
	if v, _ := base.Get("B"); v.Type() != edm.String {
		t.Fatalf("the merge changed its base: B = %v", v)
	}
}
