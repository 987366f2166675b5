package odata

import (
	"reflect"
	"strings"
	"testing"
)

// sameAsFull fails when decodeSimple takes a body and reads it otherwise
// than the full decoder.
func sameAsFull(t *testing.T, body []byte) bool {
	t.Helper()
	text, ok := copyForSimple(body)
	if !ok {
		return false
	}
	d, ok := decodeSimple(text, nil)
	if !ok {
		return false
	}
	full, err := decodeLimited(body)
	if err != nil {
		t.Fatalf("decodeSimple took %q, which the full decoder refuses: %v", body, err)
	}
	if !reflect.DeepEqual(d, full) {
		t.Fatalf("%q:\nsimple %+v\nfull   %+v", body, d, full)
	}
	return true
}

func TestDecodeSimpleAgreesWithFull(t *testing.T) {
	taken := []string{
		goEdmBody, `{}`, ` { } `, "{\n\t\"PartitionKey\" : \"p\" ,\r\n\"RowKey\":\"r\"}\n",
		`{"PartitionKey":"p","RowKey":"r","n":null,"t":true,"f":false,"z":0,"neg":-0.5e+10,"e":1E-7,"big":9223372036854775808000}`,
		`{"PartitionKey":"p","RowKey":"r","a":1,"a":2}`,
		`{"PartitionKey":"p","RowKey":"r","v":"12","v@odata.type":"Edm.Int64","odata.etag":"x","w@odata.foo":1}`,
		`{"PartitionKey":"p","RowKey":"r","bad":"abc","bad@odata.type":"Edm.Int32","odd@odata.type":"Edm.Nope","odd":"1"}`,
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"s\":\"caf\xc3\xa9\"}",
	}
	for _, b := range taken {
		if !sameAsFull(t, []byte(b)) {
			t.Errorf("decodeSimple should take %q", b)
		}
	}
	// Left to the full decoder: escapes, nesting, bad JSON, annotation problems.
	left := []string{
		``, `[]`, `{`, `{"a":1,}`, `{"a":1}x`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":1e}`, `{"a":.5}`, `{"a":+1}`,
		`{"a":"\n"}`, `{"a\"b":1}`, "{\"a\":\"x\ty\"}", `{"a":{}}`, `{"a":[1]}`, `{"a":tru}`, `{"a":nul}`, `{a:1}`,
		`{"a@odata.type":"Edm.Int64"}`, `{"a":"1","a@odata.type":1}`, `{"a":"1","a@odata.type":null}`,
		// Bytes that are not UTF-8, which a write refuses (F-KEY-UTF8).
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"s\":\"caf\xc3\xa9 \xff\"}", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"\xff\":1}",
		`{"a":"1","a@odata.type":"Edm.Int64","a@odata.type":"Edm.Int64"}`,
	}
	// Bodies over maxSimpleBody are not copied for the one-pass reader.
	left = append(left, `{"a":"`+strings.Repeat("x", maxSimpleBody)+`"}`)
	for _, b := range left {
		if sameAsFull(t, []byte(b)) {
			t.Errorf("decodeSimple should leave %q to the full decoder", b)
		}
	}
}
