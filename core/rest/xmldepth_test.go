package rest

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

// xmlDepth is the element depth of a well-formed document by encoding/xml's
// token stream (a reference independent of the scan); ok is false for
// documents it cannot read.
func xmlDepth(b []byte) (int, bool) {
	d := xml.NewDecoder(bytes.NewReader(b))
	depth, max := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return max, err.Error() == "EOF"
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
			max = maxOf(max, depth)
		case xml.EndElement:
			depth--
		}
	}
}

func maxOf(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func TestXMLWithinDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want bool
	}{
		{`<?xml version="1.0"?><a><b/><c x="/>">t</c></a>`, 2, true},
		{`<a><b><c/></b></a>`, 2, true},
		{`<a><b><c></c></b></a>`, 2, false},
		{`<a><!-- <b><c><d> --></a>`, 1, true},
		{strings.Repeat("<a>", 17), maxXMLDepth, false},
	} {
		if got := xmlWithinDepth([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("xmlWithinDepth(%q, %d) = %v", tc.in, tc.max, got)
		}
	}
	// A deep document is InvalidXMLDocument before encoding/xml reads it.
	if _, err := parseACL([]byte(strings.Repeat("<a>", 1000))); err == nil || err.Code != tableerr.InvalidXMLDocument {
		t.Errorf("deep ACL: %v", err)
	}
}

func FuzzXMLWithinDepth(f *testing.F) {
	for _, s := range []string{`<a><b x='>'/></a>`, `<?xml version="1.0"?><SignedIdentifiers><SignedIdentifier><Id>x</Id></SignedIdentifier></SignedIdentifiers>`, `<a><![CDATA[<b>]]></a>`, `<<<>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, max := range []int{1, 2, 4} {
			got := xmlWithinDepth(b, max)
			if depth, ok := xmlDepth(b); ok && !got && depth <= max {
				t.Fatalf("xmlWithinDepth(%q, %d) refused a document %d deep", b, max, depth)
			}
		}
	})
}
