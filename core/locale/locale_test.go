package locale

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, lang, doc string) *Locale {
	t.Helper()
	l, err := Parse(lang, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The CLDR samples of each category (plurals.xml, integers and a decimal),
// for the four locales.
func TestPluralCLDRSamples(t *testing.T) {
	cases := map[string]map[string][]float64{
		"en": {"one": {1}, "other": {0, 2, 3, 16, 100, 1000, 10000, 100000, 1000000, 0.5, 1.5}},
		"fr": {"one": {0, 1, 0.5, 1.5}, "many": {1000000, 2000000, 1e9}, "other": {2, 3, 17, 100, 1000, 10000, 100000, 2.5, 3.5}},
		"pl": {"one": {1}, "few": {2, 3, 4, 22, 23, 24, 32, 102, 1002}, "many": {0, 5, 6, 11, 12, 13, 14, 19, 20, 21, 25, 100, 111, 112, 1000, 10000},
			"other": {0.5, 1.5, 2.5}},
		"ja": {"other": {0, 1, 2, 5, 1000000, 1.5}},
	}
	for lang, cats := range cases {
		l := mustParse(t, lang, `{}`)
		for want, ns := range cats {
			for _, n := range ns {
				if got := l.Plural(n); got != want {
					t.Errorf("%s Plural(%v) = %q, want %q", lang, n, got, want)
				}
			}
		}
	}
}

// What Intl.NumberFormat writes for the same numbers (Chromium, CLDR 4x):
// Polish groups with U+00A0 from five digits, French with U+202F from
// four.
func TestNumbers(t *testing.T) {
	cases := []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 2000, "2,000"}, {"en", 12345, "12,345"}, {"en", -1234567, "-1,234,567"}, {"en", 999, "999"},
		{"ja", 2000, "2,000"}, {"ja", 1000000, "1,000,000"},
		{"pl", 2000, "2000"}, {"pl", 9999, "9999"}, {"pl", 12345, "12\u00a0345"}, {"pl", -1234567, "-1\u00a0234\u00a0567"},
		{"fr", 2000, "2\u202f000"}, {"fr", 999, "999"}, {"fr", 1234567, "1\u202f234\u202f567"},
	}
	for _, c := range cases {
		if got := mustParse(t, c.lang, `{}`).Int(c.n); got != c.want {
			t.Errorf("%s Int(%d) = %q, want %q", c.lang, c.n, got, c.want)
		}
	}
	floats := []struct {
		lang string
		x    float64
		want string
	}{
		{"en", 1234.5, "1,234.5"}, {"pl", 1234.5, "1234,5"}, {"fr", 1234.5, "1\u202f234,5"}, {"ja", 0.125, "0.125"},
		{"en", 2.0, "2"}, {"fr", -0.0001, "0"}, {"en", 1.23456, "1.235"},
	}
	for _, c := range floats {
		if got := mustParse(t, c.lang, `{}`).Float(c.x); got != c.want {
			t.Errorf("%s Float(%v) = %q, want %q", c.lang, c.x, got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	pl := mustParse(t, "pl", `{"e": "{n, plural, =0 {brak jednostek} one {# jednostka} few {# jednostki} many {# jednostek} other {# jednostki}} w {table}"}`)
	for n, want := range map[int]string{0: "brak jednostek w T", 1: "1 jednostka w T", 2: "2 jednostki w T", 5: "5 jednostek w T", 22: "22 jednostki w T", 12345: "12\u00a0345 jednostek w T"} {
		if got := pl.T("e", "n", n, "table", "T"); got != want {
			t.Errorf("pl n=%d: %q, want %q", n, got, want)
		}
	}
	en := mustParse(t, "en", `{"a": "{count} of {total} read", "b": "{n, plural, one {# byte} other {# bytes}}"}`)
	if got := en.T("a", "count", 2000, "total", int64(3)); got != "2,000 of 3 read" {
		t.Errorf("en a: %q", got)
	}
	if got := en.T("b", "n", 1); got != "1 byte" {
		t.Errorf("en b: %q", got)
	}
	if got := en.T("missing"); got != "missing" {
		t.Errorf("missing id: %q", got)
	}
	var none *Locale
	if got := none.T("x.y", "n", 1); got != "x.y" || none.Lang() != "en" {
		t.Errorf("nil locale: %q %q", got, none.Lang())
	}
}

func TestParseRefuses(t *testing.T) {
	bad := map[string]string{
		"not an object":  `[]`,
		"not JSON":       `{"a": `,
		"number value":   `{"a": 1}`,
		"unclosed brace": `{"a": "x {n"}`,
		"stray close":    `{"a": "x }"}`,
		"no other":       `{"a": "{n, plural, one {x}}"}`,
		"unknown branch": `{"a": "{n, plural, lots {x} other {y}}"}`,
		"select":         `{"a": "{n, select, a {x} other {y}}"}`,
		"too deep":       `{"a": "` + strings.Repeat("{n, plural, other {", MaxDepth+2) + "x" + strings.Repeat("}}", MaxDepth+2) + `"}`,
	}
	for name, doc := range bad {
		if _, err := Parse("en", []byte(doc)); err == nil {
			t.Errorf("%s: parsed %s", name, doc)
		}
	}
	if _, err := Parse("de", []byte(`{}`)); err == nil {
		t.Error("an unknown language parsed")
	}
	if _, err := Parse("en", []byte(`{"a":"`+strings.Repeat("x", MaxCatalogue)+`"}`)); err == nil {
		t.Error("a catalogue over MaxCatalogue parsed")
	}
}

func TestPlaceholders(t *testing.T) {
	got := strings.Join(Placeholders("{a} and {n, plural, one {# {b}} other {{c} #}} {a}"), ",")
	if got != "a,n,b,c" {
		t.Errorf("Placeholders = %s", got)
	}
}

func TestLearnURL(t *testing.T) {
	const u = "https://learn.microsoft.com/en-us/rest/api/storageservices/understanding-the-table-service-data-model#table-names"
	for lang, seg := range map[string]string{"en": "en-us", "pl": "pl-pl", "ja": "ja-jp", "fr": "fr-fr"} {
		l := mustParse(t, lang, `{}`)
		want := strings.Replace(u, "en-us", seg, 1)
		if got := l.LearnURL(u); got != want {
			t.Errorf("%s: %s", lang, got)
		}
		if got := l.LearnURL(strings.Replace(u, "en-us/", "", 1)); got != want {
			t.Errorf("%s without a segment: %s", lang, got)
		}
	}
	if got := mustParse(t, "pl", `{}`).LearnURL("https://example.com/en-us/x"); got != "https://example.com/en-us/x" {
		t.Errorf("another host rewritten: %s", got)
	}
}
