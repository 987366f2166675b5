package rest

import (
	"testing"

	"github.com/tableplay/tableplay/core/odata"
)

// TestNegotiateFormatWins: $format's first value decides, read the same
// whether it is one of the exact values SDKs send or needs parsing, and
// an Accept that alone would give JSON does not count beside it.
func TestNegotiateFormatWins(t *testing.T) {
	cases := []struct {
		format, accept string
		json           bool
		level          odata.Level
	}{
		{"application/json;odata=minimalmetadata", "application/atom+xml", true, odata.MinimalMetadata},
		{"application/json;odata=nometadata", "", true, odata.NoMetadata},
		{"application/json;odata=fullmetadata", "application/json;odata=nometadata", true, odata.FullMetadata},
		{"application/json", "application/json;odata=verbose", true, odata.MinimalMetadata},
		{"application/json; odata=nometadata", "", true, odata.NoMetadata}, // parsed
		{"json", "", true, odata.MinimalMetadata},
		{"atom", "application/json;odata=nometadata", false, odata.MinimalMetadata},
	}
	for _, c := range cases {
		r := &Request{Header: Header{}}
		if c.accept != "" {
			r.Header["Accept"] = []string{c.accept}
		}
		f := negotiate(r, map[string][]string{"$format": {c.format, "application/json;odata=fullmetadata"}})
		if f.json != c.json || f.level != c.level || f.err != nil {
			t.Errorf("$format %q, Accept %q: %+v", c.format, c.accept, f)
		}
	}
	// Without $format, Accept decides.
	r := &Request{Header: Header{"Accept": {"application/json;odata=fullmetadata"}}}
	if f := negotiate(r, nil); !f.json || f.level != odata.FullMetadata {
		t.Errorf("Accept alone: %+v", f)
	}
}
