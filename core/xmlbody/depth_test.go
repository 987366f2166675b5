package xmlbody

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/tableerr"
)

// refDepth is the element depth of a well-formed document by encoding/xml's
// token stream (a reference independent of the scan); ok is false for
// documents it cannot read.
func refDepth(b []byte) (int, bool) {
	d := xml.NewDecoder(bytes.NewReader(b))
	depth, deepest := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return deepest, err.Error() == "EOF"
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
			deepest = max(deepest, depth)
		case xml.EndElement:
			depth--
		}
	}
}

func TestWithinDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want bool
	}{
		{`<?xml version="1.0"?><a><b/><c x="/>">t</c></a>`, 2, true},
		{`<a><b><c/></b></a>`, 2, true},
		{`<a><b><c></c></b></a>`, 2, false},
		{`<a><!-- <b><c><d> --></a>`, 1, true},
		{strings.Repeat("<a>", 17), maxDepth, false},
	} {
		if got := withinDepth([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("withinDepth(%q, %d) = %v", tc.in, tc.max, got)
		}
	}
	// A deep document is InvalidXMLDocument before encoding/xml reads it.
	if _, err := ParseACL([]byte(strings.Repeat("<a>", 1000))); err == nil || err.Code != tableerr.InvalidXMLDocument {
		t.Errorf("deep ACL: %v", err)
	}
}

func FuzzWithinDepth(f *testing.F) {
	for _, s := range []string{`<a><b x='>'/></a>`, `<?xml version="1.0"?><SignedIdentifiers><SignedIdentifier><Id>x</Id></SignedIdentifier></SignedIdentifiers>`, `<a><![CDATA[<b>]]></a>`, `<<<>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, max := range []int{1, 2, 4} {
			got := withinDepth(b, max)
			if depth, ok := refDepth(b); ok && !got && depth <= max {
				t.Fatalf("withinDepth(%q, %d) refused a document %d deep", b, max, depth)
			}
		}
	})
}
