package odata

import (
	"testing"
	"unsafe"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// TestStringsOwnTheirBytes: an entity's string values do not point into
// the text of its body (a stored entity would hold the whole body for
// them), whichever way it was decoded; they read as written.
func TestStringsOwnTheirBytes(t *testing.T) {
	body := []byte(`{"PartitionKey":"pk","RowKey":"rk","Name":"Ada Lovelace","Typed@odata.type":"Edm.String","Typed":"typed","Empty":"","Age":36,"Esc":"a\"b"}`)
	text := string(body)
	inside := func(s string) bool {
		if s == "" {
			return false
		}
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
		return p >= start && p < start+uintptr(len(text))
	}
	check := func(how string, e *entity.Entity) {
		t.Helper()
		want := map[string]string{"Name": "Ada Lovelace", "Typed": "typed", "Empty": "", "Esc": `a"b`}
		for _, p := range e.Properties {
			if p.Value.Type() != edm.String {
				continue
			}
			if p.Value.Str() != want[p.Name] {
				t.Errorf("%s: %s = %q", how, p.Name, p.Value.Str())
			}
			if inside(p.Value.Str()) {
				t.Errorf("%s: %s points into the body", how, p.Name)
			}
		}
	}
	e, err := DecodeEntityText(body, text)
	if err != nil {
		t.Fatal(err)
	}
	check("DecodeEntityText", e)
	simple := []byte(`{"PartitionKey":"pk","RowKey":"rk","Name":"Ada Lovelace","Typed@odata.type":"Edm.String","Typed":"typed","Empty":"","Age":36}`)
	text = string(simple)
	if e, err = DecodeEntityText(simple, text); err != nil {
		t.Fatal(err)
	}
	check("DecodeEntityText, one pass", e)
	if e, err = DecodeUpdateText(simple, text, "pk", "rk"); err != nil {
		t.Fatal(err)
	}
	check("DecodeUpdateText", e)
	var dec Decoder
	if e, err = dec.Entity(simple); err != nil {
		t.Fatal(err)
	}
	// The Decoder reads a copy of the body; the values are copied again,
	// out of that copy, into its chunk of values.
	text = dec.texts.String()
	check("Decoder", e)
	text = string(simple)
	if e, err = dec.EntityText(simple, text); err != nil {
		t.Fatal(err)
	}
	check("Decoder, text given", e)
	if dec.values.Len() != 2*len("pkrkAda Lovelacetyped") {
		t.Errorf("Decoder: %d bytes of values, want those of the four non-empty strings, twice", dec.values.Len())
	}
}
