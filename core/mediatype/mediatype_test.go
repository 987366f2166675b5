package mediatype

import (
	"maps"
	"mime"
	"strings"
	"testing"
)

// mediaTypeSeeds are Content-Type and Accept values SDKs send, the batch
// forms, and the corners of the grammar (quoting, RFC 2231, repeats).
var mediaTypeSeeds = []string{
	"application/json", "application/json;odata=nometadata", "application/json; odata=fullmetadata",
	"multipart/mixed; boundary=batch_a1b2", `multipart/mixed; boundary="changeset_x y"`,
	"application/http", "application/atom+xml", "*/*", "json", "text/plain;charset=utf-8",
	"APPLICATION/JSON;ODATA=NoMetadata", "application/json;", "application/json;;", "application/json; a=1;",
	"application/json; a=1; a=1", "application/json; a=1; a=2", "application/json; a", "application/json; =1",
	`a/b; c="d\"e"`, `a/b; c="d\e"`, `a/b; c="unterminated`, "a/b; c=\"x\ry\"", "a/b c", "/b", "a/", "a/b/c",
	"a/b; boundary*=utf-8''x%20y", "a/b; boundary*=iso-8859-1''x", "a/b; boundary*=utf-8''%zz",
	"a/b; boundary*0=ab; boundary*1=cd", "a/b; boundary*0*=us-ascii''a%41; boundary*1*=%42; boundary*2=c",
	"a/b; boundary=x; boundary*=utf-8''y", "a/b; k*=x", "a/b;\u00a0k=v", "\u212a/b", "a/b; k=\"\"", "",
	"a/b; boundary*1=x", "a/b; b*0=\"q;\"; b*1=r",
}

// FuzzParse holds Parse to mime.ParseMediaType: the same acceptance, type
// and parameters for every input.
func FuzzParse(f *testing.F) {
	for _, s := range mediaTypeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wantMT, wantP, err := mime.ParseMediaType(s)
		mt, p, ok := Parse(s)
		if ok != (err == nil) {
			t.Fatalf("%q: ok %v, mime's error %v", s, ok, err)
		}
		if ok && (mt != wantMT || !maps.Equal(p, wantP)) {
			t.Fatalf("%q: %q %v, mime %q %v", s, mt, p, wantMT, wantP)
		}
	})
}

// TestParseHostile: a long value of parameters and continuations is read
// in one pass with memory proportional to it.
func TestParseHostile(t *testing.T) {
	v := "multipart/mixed" + strings.Repeat("; b*1=x", 1) + strings.Repeat(";k=v", 1<<14)
	allocs := testing.AllocsPerRun(3, func() { Parse(v) })
	if _, _, ok := Parse(v); !ok {
		t.Fatal("repeated equal parameters are allowed")
	}
	if allocs > 50 {
		t.Errorf("%v allocations for %d bytes", allocs, len(v))
	}
}
