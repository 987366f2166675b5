package odata

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

func TestDecodeEntityErrors(t *testing.T) {
	tests := []struct {
		body string
		want tableerr.Code
		msg  string
	}{
		{`{"PartitionKey":"p","RowKey":"r"`, tableerr.InvalidInput, ""},
		{`not json`, tableerr.InvalidInput, ""},
		{`[1,2]`, tableerr.InvalidInput, ""},
		{`"x"`, tableerr.InvalidInput, ""},
		{``, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","o":{"a":1}}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a":[1]}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a":1,"a":2}`, tableerr.DuplicatePropertiesSpecified, "A property is specified more than one time."},
		{`{"PartitionKey":"p","RowKey":"r","PartitionKey":"q"}`, tableerr.DuplicatePropertiesSpecified, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Int64","a@odata.type":"Edm.Int64","a":"1"}`, tableerr.DuplicatePropertiesSpecified, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":5,"a":"1"}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Int64"}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Money","a":"1"}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Guid","a":"nope"}`, tableerr.InvalidInput, "One of the request inputs is not valid."},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Binary","a":"!!"}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.DateTime","a":"1600-12-31T00:00:00Z"}`, tableerr.OutOfRangeInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@odata.type":"Edm.Int64","a":"9223372036854775808"}`, tableerr.InvalidInput, "An error occurred while processing this request."},
		{`{"PartitionKey":"p","RowKey":"r","a":1e999}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"r","a-b":1}`, tableerr.PropertyNameInvalid, ""},
		{`{"PartitionKey":"p","RowKey":"r","a@b":1}`, tableerr.PropertyNameInvalid, ""},
		{`{"PartitionKey":"p"}`, tableerr.PropertiesNeedValue, ""},
		{`{"PartitionKey":"p","RowKey":null}`, tableerr.PropertiesNeedValue, ""},
		{`{"PartitionKey":"p","RowKey":true}`, tableerr.InvalidInput, ""},
		{`{"PartitionKey":"p","RowKey":"a?b"}`, tableerr.OutOfRangeInput, "The 'RowKey' parameter of value 'a?b' is out of range."},
		{`{"PartitionKey":"p","RowKey":"r","PartitionKey@odata.type":"Edm.Int64"}`, tableerr.InvalidInput, ""},
	}
	for _, tt := range tests {
		_, err := DecodeEntity([]byte(tt.body))
		if err == nil || err.Code != tt.want {
			t.Errorf("%s: %v, want %s", tt.body, err, tt.want)
			continue
		}
		if tt.msg != "" && err.Message != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.body, err.Message, tt.msg)
		}
	}
}

func TestDecodeEntityIgnores(t *testing.T) {
	// The Go SDK sends Timestamp 0001-01-01 and clients may echo odata.* members.
	body := `{"odata.etag":"W/\"x\"","odata.metadata":"m","PartitionKey":"p","RowKey":"r","Timestamp":"0001-01-01T00:00:00Z","n":null,"a@odata.foo":"x","a":"kept","b@odata.type":"Edm.Int64","b":null,"PartitionKey@odata.type":"Edm.String"}`
	e, err := DecodeEntity([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if e.PartitionKey != "p" || e.RowKey != "r" || len(e.Properties) != 1 || e.Properties[0].Name != "a" {
		t.Errorf("decoded %+v", e)
	}
}

func TestDecodeTableName(t *testing.T) {
	if n, err := DecodeTableName([]byte(`{"TableName":"MyTable"}`), profile.StorageTableNames); err != nil || n != "MyTable" {
		t.Errorf("got %q, %v", n, err)
	}
	for body, want := range map[string]tableerr.Code{
		`{"TableName":"啊齄丂狛狜"}`:  tableerr.InvalidResourceName,
		`{"TableName":"ab"}`:     tableerr.OutOfRangeInput,
		`{"TableName":"tables"}`: tableerr.InvalidInput,
		`{"TableName":5}`:        tableerr.PropertiesNeedValue,
		`{}`:                     tableerr.PropertiesNeedValue,
		`{`:                      tableerr.InvalidInput,
		`[]`:                     tableerr.InvalidInput,
	} {
		if _, err := DecodeTableName([]byte(body), profile.StorageTableNames); err == nil || err.Code != want {
			t.Errorf("%s: %v, want %s", body, err, want)
		}
	}
}

func TestETag(t *testing.T) {
	ts, _ := edm.ParseDateTime("2021-06-09T01:17:13.2924321Z")
	tag := ETag(ts)
	if tag != `W/"datetime'2021-06-09T01%3A17%3A13.2924321Z'"` {
		t.Errorf("ETag = %s", tag)
	}
	if got, ok := ParseETag(tag); !ok || got != ts {
		t.Errorf("ParseETag = %v, %v", got, ok)
	}
	for _, bad := range []string{"", "*", `"0x8D"`, `W/"0x5B168C7B6E589D2"`, `W/"datetime'x'"`, `W/"datetime'2021-06-09T01%3A17%3A13Z"`} {
		if _, ok := ParseETag(bad); ok {
			t.Errorf("ParseETag(%q) accepted", bad)
		}
	}
}

func TestTablesAtAllLevels(t *testing.T) {
	names := []string{"alpha", "Beta"}
	want := map[Level]string{
		NoMetadata:      `{"value":[{"TableName":"alpha"},{"TableName":"Beta"}]}`,
		MinimalMetadata: `{"odata.metadata":"https://a.example/acct/$metadata#Tables","value":[{"TableName":"alpha"},{"TableName":"Beta"}]}`,
		FullMetadata:    `{"odata.metadata":"https://a.example/acct/$metadata#Tables","value":[{"odata.type":"acct.Tables","odata.id":"https://a.example/acct/Tables('alpha')","odata.editLink":"Tables('alpha')","TableName":"alpha"},{"odata.type":"acct.Tables","odata.id":"https://a.example/acct/Tables('Beta')","odata.editLink":"Tables('Beta')","TableName":"Beta"}]}`,
	}
	for l, w := range want {
		got := string(AppendTables(nil, &Context{Base: "https://a.example/acct", Account: "acct", Level: l}, names))
		if got != w {
			t.Errorf("%s:\n got %s\nwant %s", l, got, w)
		}
	}
	if got := string(AppendTables(nil, &Context{Base: "b", Level: MinimalMetadata}, nil)); got != `{"odata.metadata":"b/$metadata#Tables","value":[]}` {
		t.Errorf("empty list %s", got)
	}
}

func TestEntityPathEscaping(t *testing.T) {
	got := EntityPath("t", "O'Brien", "a b%/你")
	if got != "t(PartitionKey='O''Brien',RowKey='a%20b%25%2F%E4%BD%A0')" {
		t.Errorf("EntityPath = %s", got)
	}
}

func TestLevels(t *testing.T) {
	for _, l := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
		got, ok := ParseLevel(l.String())
		if !ok || got != l {
			t.Errorf("ParseLevel(%s)", l)
		}
	}
	if _, ok := ParseLevel("verbose"); ok {
		t.Error("verbose accepted")
	}
	if MinimalMetadata.ContentType() != "application/json;odata=minimalmetadata;streaming=true;charset=utf-8" {
		t.Error(MinimalMetadata.ContentType())
	}
}

func TestEmptyFeedAndSelectAll(t *testing.T) {
	c := &Context{Base: "b", Table: "t", Level: MinimalMetadata}
	if got := string(AppendEntities(nil, c, nil, &Projection{Text: ""})); got != `{"odata.metadata":"b/$metadata#t&$select=","value":[]}` {
		t.Errorf("%s", got)
	}
	// $select= with no names selects everything, as in the live recordings.
	e := &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "x", Value: edm.Int32Value(1)}}}
	got := string(AppendEntity(nil, c, e, &Projection{Text: ""}))
	if !strings.Contains(got, `"PartitionKey":"p","RowKey":"r","Timestamp":`) || !strings.Contains(got, `"x":1`) {
		t.Errorf("%s", got)
	}
}

// FuzzDecodeEntity: decoding never panics; whatever decodes encodes to valid
// JSON at every level and decodes again to the same entity.
func FuzzDecodeEntity(f *testing.F) {
	for _, s := range []string{goEdmBody, pyFullBody, `{"PartitionKey":"PK1","RowKey":"RK1","Data":9223372036854775808000}`,
		`{"PartitionKey":"PK4","RowKey":"RK4","Data1@odata.type":"Edm.Double","Data1":"NaN"}`, `{"PartitionKey":"","RowKey":"","a":1,"a":2}`,
		`{"PartitionKey":"p","RowKey":"r","s":"\u0000\ud83d\ude00\"\\"}`, `{"PartitionKey":"p","RowKey":"r","d":-0.0,"e":1E-7,"i":-2147483648}`, `[]`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsFull(t, body)
		e, err := DecodeEntity(body)
		sameFromDecoder(t, body, e, err)
		// Read from the caller's text, the same entity or error.
		if et, errT := DecodeEntityText(body, string(body)); (err == nil) != (errT == nil) ||
			err != nil && (err.Code != errT.Code || err.Message != errT.Message) || err == nil && !sameEntity(e, et) {
			t.Fatalf("from text: %+v, %v; from bytes: %+v, %v", et, errT, e, err)
		}
		if err != nil {
			if err.Status != 400 || err.Message == "" {
				t.Fatalf("bad error %+v", err)
			}
			return
		}
		for _, l := range []Level{NoMetadata, MinimalMetadata, FullMetadata} {
			out := AppendEntity(nil, &Context{Base: "b", Account: "a", Table: "t", Level: l}, e, nil)
			if !json.Valid(out) {
				t.Fatalf("invalid JSON at %s: %s", l, out)
			}
			if l == NoMetadata {
				continue // types of Int64, Guid, … are not recoverable without annotations
			}
			again, err := DecodeEntity(out)
			if err != nil {
				t.Fatalf("re-decode at %s of %s: %v", l, out, err)
			}
			if !sameEntity(e, again) {
				t.Fatalf("round trip at %s changed\n%+v\n%+v", l, e, again)
			}
		}
	})
}

func sameEntity(a, b *entity.Entity) bool {
	if a.PartitionKey != b.PartitionKey || a.RowKey != b.RowKey || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Properties {
		p, q := a.Properties[i], b.Properties[i]
		if p.Name != q.Name || edm.Compare(p.Value, q.Value) != 0 {
			return false
		}
	}
	return true
}

// sameDecoded reports whether two decoded entities (or nils) are the same:
// reflect.DeepEqual for their every field, and edm.Value.Equal for their
// values, which DeepEqual cannot judge (it follows a string's pointer to
// its first byte and compares no further).
func sameDecoded(a, b *entity.Entity) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	if a == nil || b == nil {
		return a == b
	}
	for i, p := range a.Properties {
		if !p.Value.Equal(b.Properties[i].Value) {
			return false
		}
	}
	return true
}

// TestSameDecodedSeesEveryByte: sameFromDecoder tells values apart past
// their first byte, where a reused chunk would corrupt them.
func TestSameDecodedSeesEveryByte(t *testing.T) {
	one := func(s string) *entity.Entity {
		return &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{{Name: "S", Value: edm.StringValue(s)}}}
	}
	if sameDecoded(one("ab"), one("ac")) || !sameDecoded(one("ab"), one("a"+"b")) || !sameDecoded(nil, nil) || sameDecoded(one("ab"), nil) {
		t.Fatal("sameDecoded does not compare a string's every byte")
	}
}

// sameFromDecoder checks that a Decoder, its space used by other bodies
// before, decodes body as DecodeEntity does (want, wantErr).
func sameFromDecoder(t *testing.T, body []byte, want *entity.Entity, wantErr *tableerr.Error) {
	t.Helper()
	var dec Decoder
	for i, b := range [][]byte{[]byte(goEdmBody), []byte(`{"PartitionKey":"p","RowKey":"r"}`), body, body, body} {
		var got *entity.Entity
		var err *tableerr.Error
		if i == 4 { // the body also as text (EntityText)
			got, err = dec.EntityText(b, string(b))
		} else {
			got, err = dec.Entity(b)
		}
		if string(b) != string(body) {
			continue
		}
		if !reflect.DeepEqual(err, wantErr) || !sameDecoded(got, want) {
			t.Fatalf("%q (%d): Decoder gives %+v %v, DecodeEntity %+v %v", body, i, got, err, want, wantErr)
		}
	}
}

// TestDecodeTableNameByProfile: the create body's name is judged by the
// profile's rule (F-COSMOS-TABLE-NAMES): my_table and a CJK name pass
// under Cosmos's and are Storage's 400 InvalidResourceName under Storage's.
func TestDecodeTableNameByProfile(t *testing.T) {
	for _, name := range []string{"my_table", "啊齄丂狛狜"} {
		body := []byte(`{"TableName":"` + name + `"}`)
		if n, err := DecodeTableName(body, profile.CosmosTableNames); err != nil || n != name {
			t.Errorf("cosmos: %q, %v", n, err)
		}
		if _, err := DecodeTableName(body, profile.StorageTableNames); err == nil || err.Code != "InvalidResourceName" {
			t.Errorf("storage: %q gives %v, want InvalidResourceName", name, err)
		}
	}
	if _, err := DecodeTableName([]byte(`{"TableName":"a#b"}`), profile.CosmosTableNames); err == nil || err.Code != "InvalidInput" {
		t.Errorf("cosmos a#b: %v, want InvalidInput", err)
	}
}
