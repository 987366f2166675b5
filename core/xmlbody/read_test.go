package xmlbody

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/store"
)

// The references below read the same documents with encoding/xml (what
// the engine used before its own reader), into the types the reader fills.

type aclRef struct {
	XMLName xml.Name `xml:"SignedIdentifiers"`
	IDs     []struct {
		ID     string `xml:"Id"`
		Policy *struct {
			Start      *string `xml:"Start"`
			Expiry     *string `xml:"Expiry"`
			Permission *string `xml:"Permission"`
		} `xml:"AccessPolicy"`
	} `xml:"SignedIdentifier"`
}

func refReadACL(b []byte) ([]aclEntry, bool) {
	var d aclRef
	if xml.Unmarshal(b, &d) != nil {
		return nil, false
	}
	var out []aclEntry
	for _, x := range d.IDs {
		e := aclEntry{ID: x.ID}
		if p := x.Policy; p != nil {
			e.Policy = &struct{ Start, Expiry, Permission *string }{p.Start, p.Expiry, p.Permission}
		}
		out = append(out, e)
	}
	return out, true
}

type retentionRef struct {
	Enabled bool `xml:"Enabled"`
	Days    *int `xml:"Days"`
}

type metricsRef struct {
	Version     string       `xml:"Version"`
	Enabled     bool         `xml:"Enabled"`
	IncludeAPIs *bool        `xml:"IncludeAPIs"`
	Retention   retentionRef `xml:"RetentionPolicy"`
}

type propertiesRef struct {
	XMLName xml.Name `xml:"StorageServiceProperties"`
	Logging *struct {
		Version   string       `xml:"Version"`
		Read      bool         `xml:"Read"`
		Write     bool         `xml:"Write"`
		Delete    bool         `xml:"Delete"`
		Retention retentionRef `xml:"RetentionPolicy"`
	} `xml:"Logging"`
	HourMetrics   *metricsRef `xml:"HourMetrics"`
	MinuteMetrics *metricsRef `xml:"MinuteMetrics"`
	Cors          *struct {
		Rules []struct {
			AllowedOrigins  string `xml:"AllowedOrigins"`
			AllowedMethods  string `xml:"AllowedMethods"`
			AllowedHeaders  string `xml:"AllowedHeaders"`
			ExposedHeaders  string `xml:"ExposedHeaders"`
			MaxAgeInSeconds int    `xml:"MaxAgeInSeconds"`
		} `xml:"CorsRule"`
	} `xml:"Cors"`
}

func refReadProperties(b []byte) (propertiesDoc, bool) {
	var r propertiesRef
	if xml.Unmarshal(b, &r) != nil {
		return propertiesDoc{}, false
	}
	var d propertiesDoc
	if l := r.Logging; l != nil {
		d.Logging = &loggingXML{l.Version, l.Read, l.Write, l.Delete, retentionXML(l.Retention)}
	}
	for _, m := range []struct {
		in  *metricsRef
		out **metricsXML
	}{{r.HourMetrics, &d.HourMetrics}, {r.MinuteMetrics, &d.MinuteMetrics}} {
		if m.in != nil {
			*m.out = &metricsXML{m.in.Version, m.in.Enabled, m.in.IncludeAPIs, retentionXML(m.in.Retention)}
		}
	}
	if c := r.Cors; c != nil {
		d.Cors = new(struct{ Rules []corsRuleXML })
		for _, x := range c.Rules {
			d.Cors.Rules = append(d.Cors.Rules, corsRuleXML(x))
		}
	}
	return d, true
}

// nonASCIIName reports whether a byte beyond ASCII may stand in a name
// (inside markup, or in an entity reference), where the reader follows
// XML's fifth edition and encoding/xml an older table: such inputs are
// left out of the comparison. It errs on the side of true.
func nonASCIIName(b []byte) bool {
	inTag, amp := false, false
	var quote byte
	for _, c := range b {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c >= utf8.RuneSelf {
				return true // an attribute value: also a directive's quoted text
			}
		case c >= utf8.RuneSelf && (inTag || amp):
			return true
		case c == '<':
			inTag = true
		case c == '>':
			inTag = false
		case inTag && (c == '"' || c == '\''):
			quote = c
		case c == '&':
			amp = true
		case c == ';' || !isNameByte(c) && c < utf8.RuneSelf:
			amp = false
		}
	}
	return false
}

// docSeeds are the documents of the recorded exchanges and tests, and the
// corners of the grammar.
func docSeeds(t testing.TB) [][]byte {
	seeds := [][]byte{
		[]byte(`<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>a&amp;b&#x41;&#66;</Id><AccessPolicy><Start>2026-01-01</Start><Expiry>2026-01-02T00:00:00Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`),
		[]byte("\ufeff<?xml version='1.0'?><SignedIdentifiers />"),
		[]byte(`<SignedIdentifiers><SignedIdentifier><Id><![CDATA[x<y]]>z<!-- c --><b>skip</b>w</Id><Id>last</Id><AccessPolicy/><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>trailing <junk`),
		[]byte(`<p:SignedIdentifiers xmlns:p="u"><p:SignedIdentifier a='1' b="&lt;"><p:Id>x</p:Id></p:SignedIdentifier></p:SignedIdentifiers>`),
		[]byte(`<!DOCTYPE x [<!ENTITY e "v"> <!-- c -->]><SignedIdentifiers/>`),
		[]byte("<SignedIdentifiers><SignedIdentifier><Id>a\r\nb\rc</Id></SignedIdentifier></SignedIdentifiers>"),
		[]byte(`<SignedIdentifiers><SignedIdentifier><Id>&#0;</Id></SignedIdentifier></SignedIdentifiers>`),
		[]byte(`<SignedIdentifiers><SignedIdentifier><Id>&#xD800;</Id></SignedIdentifier></SignedIdentifiers>`),
		[]byte(`<SignedIdentifiers><a></b></SignedIdentifiers>`),
		[]byte(`<SignedIdentifiers>` + strings.Repeat(`<SignedIdentifier><Id>i</Id></SignedIdentifier>`, 7) + `<SignedIdentifier><AccessPolicy><Start>x</Start></AccessPolicy></SignedIdentifier><SignedIdentifier/></SignedIdentifiers>`),
		[]byte(`<StorageServiceProperties><Cors>` + strings.Repeat(`<CorsRule><AllowedOrigins>o</AllowedOrigins><AllowedMethods>GET</AllowedMethods></CorsRule>`, 7) + `<CorsRule><MaxAgeInSeconds>x</MaxAgeInSeconds></CorsRule><CorsRule/></Cors></StorageServiceProperties>`),
		[]byte(`<?xml version="1.1"?><SignedIdentifiers/>`), []byte(`<?xml encoding="utf-16"?><SignedIdentifiers/>`),
		[]byte(`<SignedIdentifiers><!-- a -- b --></SignedIdentifiers>`), []byte(`<SignedIdentifiers>]]></SignedIdentifiers>`),
		[]byte(`<StorageServiceProperties><Logging><Version>1.0</Version><Read> true </Read><Write>1</Write><Delete/><RetentionPolicy><Enabled>true</Enabled><Days>+07</Days></RetentionPolicy></Logging>` +
			`<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>` +
			`<MinuteMetrics><Enabled>yes</Enabled></MinuteMetrics><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds> 5 </MaxAgeInSeconds></CorsRule><CorsRule/></Cors></StorageServiceProperties>`),
		[]byte(`<StorageServiceProperties><Cors/><Cors><CorsRule><MaxAgeInSeconds>99999999999999999999</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`),
		[]byte(`<StorageServiceProperties><Logging><RetentionPolicy><Days></Days></RetentionPolicy></Logging><Logging><Read>t</Read></Logging></StorageServiceProperties>`),
	}
	// The bodies of the recorded exchanges (core/rest's transcripts).
	files, _ := filepath.Glob("../rest/testdata/transcripts/*.txt")
	if len(files) == 0 {
		t.Fatal("no transcripts to take seeds from")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, root := range []string{"<SignedIdentifiers", "<StorageServiceProperties"} {
			if i := bytes.Index(b, []byte(root)); i >= 0 {
				seeds = append(seeds, b[i:])
			}
		}
	}
	return seeds
}

// FuzzRead holds the reader to encoding/xml on both documents: the same
// documents accepted, with the same values, and the same answers.
func FuzzRead(f *testing.F) {
	for _, s := range docSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if nonASCIIName(b) || !withinDepth(b, maxDepth) {
			return
		}
		var acl aclReader
		ok := readDoc(b, "SignedIdentifiers", &acl)
		want, wantOK := refReadACL(b)
		if ok != wantOK {
			t.Fatalf("ACL %q: %v, encoding/xml %v", b, ok, wantOK)
		}
		// Identifiers past the limit are not all kept: the first ones are
		// the same, and so is the answer (the store refuses more).
		if ok && len(bytes.TrimSpace(b)) > 0 {
			if n := store.MaxSignedIdentifiers; len(want) > n+1 {
				if !reflect.DeepEqual(acl.ids[:n], want[:n]) || !reflect.DeepEqual(acl.ids[n], want[len(want)-1]) {
					t.Fatalf("ACL %q: %+v, encoding/xml %+v", b, acl.ids, want)
				}
			} else if !reflect.DeepEqual(acl.ids, want) {
				t.Fatalf("ACL %q: %+v, encoding/xml %+v", b, acl.ids, want)
			}
			got, err := ParseACL(b)
			ref, refErr := identifiers(want)
			if (err == nil) != (refErr == nil) || len(got) > store.MaxSignedIdentifiers != (len(ref) > store.MaxSignedIdentifiers) ||
				err == nil && !reflect.DeepEqual(got[:min(len(got), store.MaxSignedIdentifiers)], ref[:min(len(ref), store.MaxSignedIdentifiers)]) {
				t.Fatalf("ACL %q: %+v %v, from encoding/xml %+v %v", b, got, err, ref, refErr)
			}
		}
		var props propertiesDoc
		ok = readDoc(b, "StorageServiceProperties", &props)
		wantP, wantOK := refReadProperties(b)
		if ok != wantOK {
			t.Fatalf("properties %q: %v, encoding/xml %v", b, ok, wantOK)
		}
		if !ok {
			return
		}
		// Rules past the limit are not all kept: compare the answer then.
		if wantP.Cors == nil || len(wantP.Cors.Rules) <= store.MaxCorsRules {
			if !reflect.DeepEqual(props, wantP) {
				t.Fatalf("properties %q: %+v, encoding/xml %+v", b, props, wantP)
			}
		}
		got, err := MergeProperties(store.ServiceProperties{}, b)
		ref, refErr := applyProperties(store.ServiceProperties{}, wantP)
		if (err == nil) != (refErr == nil) || !reflect.DeepEqual(got, ref) {
			t.Fatalf("properties %q: %+v %v, from encoding/xml %+v %v", b, got, err, ref, refErr)
		}
	})
}

// FuzzEscapeText holds escapeText to encoding/xml's EscapeText.
func FuzzEscapeText(f *testing.F) {
	for _, s := range []string{"a<b>&\"'\t\n\r", "\x00\xff\ufffd\U0010FFFF\ufffe", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want bytes.Buffer
		escapeText(&got, s)
		xml.EscapeText(&want, []byte(s))
		if got.String() != want.String() {
			t.Fatalf("%q: %q, encoding/xml %q", s, got.String(), want.String())
		}
	})
}

// TestReadNonASCIINames: names beyond ASCII follow XML's fifth edition.
func TestReadNonASCIINames(t *testing.T) {
	for _, c := range []struct {
		doc string
		ok  bool
	}{
		{"<SignedIdentifiers><é/><x·y/><日本/></SignedIdentifiers>", true},
		{"<SignedIdentifiers><·/></SignedIdentifiers>", false},       // · may not start a name
		{"<SignedIdentifiers><a\u00d7/></SignedIdentifiers>", false}, // × is no name character
		{"<SignedIdentifiers><\xff/></SignedIdentifiers>", false},
	} {
		if got := readDoc([]byte(c.doc), "SignedIdentifiers", &aclReader{}); got != c.ok {
			t.Errorf("%q: %v, want %v", c.doc, got, c.ok)
		}
	}
}
