package play

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/web/locales"
)

func localeOf(t *testing.T, lang string) *locale.Locale {
	t.Helper()
	l, err := locales.In(lang)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// brokenRules are errors carrying every rule wording the engine's
// validators write (the store's own, for Cosmos and the end of time, are
// left to core/store's tests).
func brokenRules(t *testing.T) [][]*tableerr.Error {
	t.Helper()
	var out [][]*tableerr.Error
	for _, name := range []string{"ab", strings.Repeat("a", 64), "1abc", "a-b", "tables"} {
		out = append(out, entity.TableNameViolations(name))
	}
	for _, name := range []string{"", strings.Repeat("a", 255), "a/b", "ab "} {
		out = append(out, entity.CosmosTableNameViolations(name))
	}
	s := func(v string) *string { return &v }
	drafts := []Draft{
		{RowKey: s("r")},
		{PartitionKey: s("a/b"), RowKey: s("r")},
		{PartitionKey: s("p"), RowKey: s(strings.Repeat("k", 600))},
		{PartitionKey: s("\xff"), RowKey: s("r")},
		{PartitionKey: s("p"), RowKey: s("r"), Properties: []Row{{Name: "S", Text: strings.Repeat("x", 32768)}, {Name: "B", Type: "Binary", Text: strings.Repeat("QUFB", 22000)}}},
		{PartitionKey: s("p"), RowKey: s("r"), Properties: []Row{{Name: "a-b", Text: "x"}, {Name: strings.Repeat("n", 256), Text: "x"}, {Name: "N", Type: "Int32", Text: "x"}}},
		{PartitionKey: s("p"), RowKey: s("r"), Properties: []Row{{Name: "D", Type: "DateTime", Text: "1500-01-01T00:00:00Z"}, {Name: "T", Type: "Foo", Text: "x"}}},
	}
	many := Draft{PartitionKey: s("p"), RowKey: s("r")}
	for i := range 300 {
		many.Properties = append(many.Properties, Row{Name: "P" + strings.Repeat("x", i%3) + itoa(i), Text: strings.Repeat("v", 4000)})
	}
	drafts = append(drafts, many)
	for _, d := range drafts {
		out = append(out, entity.Check(d.fields()).Violations)
	}
	for _, body := range []string{`[`, `{"PartitionKey":"p","RowKey":"r","N":5,"N@odata.type":"Edm.Int64"}`, `{"PartitionKey":"p","RowKey":"r","a":1,"a":2}`, `{"PartitionKey":5,"RowKey":"r"}`} {
		d, err := odata.DecodeDraft([]byte(body))
		if err != nil {
			out = append(out, []*tableerr.Error{err})
			continue
		}
		out = append(out, entity.Check(d).Violations)
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The English catalogue says what the engine's packages write: a card in
// English from the catalogue is the card the engine makes without one.
func TestEnglishCardsAreTheEngines(t *testing.T) {
	en := locales.English()
	seen := map[string]bool{}
	for _, errs := range brokenRules(t) {
		for _, e := range errs {
			want, _ := json.Marshal(cardOf(nil, e))
			got, _ := json.Marshal(cardOf(en, e))
			if string(got) != string(want) {
				t.Errorf("%s: from the catalogue\n%s\nthe engine writes\n%s", e.Rule.ID, got, want)
			}
			key := e.Rule.ID
			if e.Rule.Variant != "" {
				key += "." + e.Rule.Variant
			}
			seen[key] = true
		}
	}
	store := map[string]bool{"timestamp-end-of-time": true, "cosmos-empty-key": true, "cosmos-reserved-name": true, "cosmos-rowkey-bytes": true}
	for _, r := range ruleTexts() {
		if !seen[r.key] && !store[r.key] {
			t.Errorf("no input here breaks %s: the list of rule texts names a wording the engine does not write", r.key)
		}
	}
}

// In another locale every part of a card is that locale's: no id is left,
// the service's code and message are untouched and the Learn link goes to
// the locale's edition.
func TestCardsInEachLocale(t *testing.T) {
	for _, lang := range []string{"pl", "ja", "fr"} {
		loc := localeOf(t, lang)
		for _, errs := range brokenRules(t) {
			for _, e := range errs {
				c := cardOf(loc, e)
				r := c.Rule
				for _, s := range []string{r.Statement, r.Section, r.Detail, r.Dispute} {
					if strings.HasPrefix(s, "rule.") || strings.HasPrefix(s, "section.") || strings.HasPrefix(s, "detail.") || strings.HasPrefix(s, "card.") {
						t.Errorf("%s %s: an id left: %q", lang, r.ID, s)
					}
				}
				if r.Statement == e.Rule.Statement {
					t.Errorf("%s %s: the statement is English: %q", lang, r.ID, r.Statement)
				}
				if r.Measure != nil && strings.HasPrefix(r.Measure.Unit, "unit.") {
					t.Errorf("%s %s: unit %q", lang, r.ID, r.Measure.Unit)
				}
				if r.DocURL != "" && strings.HasPrefix(r.DocURL, "https://learn.microsoft.com/en-us/rest/") {
					t.Errorf("%s %s: %s", lang, r.ID, r.DocURL)
				}
				if c.Code != string(e.Code) || c.Message != e.Message {
					t.Errorf("%s %s: the service's answer changed: %s %q", lang, r.ID, c.Code, c.Message)
				}
			}
		}
	}
	pl := localeOf(t, "pl")
	c := cardOf(pl, entity.TableNameViolations("a-b")[0])
	if c.Rule.Detail != "'-' na znaku 2 (licząc od 1)" {
		t.Errorf("pl detail %q", c.Rule.Detail)
	}
	if c := cardOf(pl, entity.TableNameViolations("ab")[0]); c.Rule.Measure.Unit != "znaki" {
		t.Errorf("pl unit for a limit of 3: %q", c.Rule.Measure.Unit)
	}
}

// Explanations and batch rules come out in the locale with its numbers.
func TestExplanationsInEachLocale(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	for lang, want := range map[string]string{
		"pl": "Przeszukuje PartitionKey ≥ 'a' i < 'b'; sprawdzane są tylko jednostki z tego zakresu.",
		"ja": "PartitionKey ≥ 'a' かつ < 'b' をスキャンします。調べられるのはその範囲のエンティティだけです。",
		"fr": "Parcourt PartitionKey ≥ 'a' et < 'b' ; seules les entités de cette plage sont examinées.",
	} {
		var ex Explanation
		if err := json.Unmarshal(a.In(localeOf(t, lang)).ExplainFilter("PartitionKey ge 'a' and PartitionKey lt 'b'", ""), &ex); err != nil {
			t.Fatal(err)
		}
		if ex.KeyRange.Statement != want {
			t.Errorf("%s: %q", lang, ex.KeyRange.Statement)
		}
	}
	var bc BatchCheck
	_ = json.Unmarshal(a.In(localeOf(t, "pl")).CheckBatch([]byte(`[]`)), &bc)
	if got := bc.Rules[2].Statement; got != "Transakcja grupy jednostek obejmuje co najwyżej 100 operacji." {
		t.Errorf("pl batch size rule %q", got)
	}
}

// The profiles' differences read the same from the English catalogue, and
// in another locale none is left in English.
func TestDifferencesInEachLocale(t *testing.T) {
	ds := profile.Differences()
	en := LocalDifferences(locales.English(), ds)
	for i := range ds {
		if en[i].Sentence != ds[i].Sentence {
			t.Errorf("%s: the catalogue has %q, core/profile %q", ds[i].ID, en[i].Sentence, ds[i].Sentence)
		}
	}
	for _, lang := range []string{"pl", "ja", "fr"} {
		for i, d := range LocalDifferences(localeOf(t, lang), ds) {
			if d.Sentence == ds[i].Sentence || strings.HasPrefix(d.Sentence, "difference.") || d.ID != ds[i].ID {
				t.Errorf("%s %s: %q", lang, d.ID, d.Sentence)
			}
		}
	}
}

// A value that does not parse as its type is said in the card's locale,
// in English exactly as the parser writes it; the service's message stays.
func TestParseDetailsInEachLocale(t *testing.T) {
	s := func(v string) *string { return &v }
	card := func(loc *locale.Locale, typ, text string) tableerr.Rule {
		t.Helper()
		d := Draft{PartitionKey: s("p"), RowKey: s("r"), Properties: []Row{{Name: "Age", Type: typ, Text: text}}}
		v := entity.Check(d.fields()).Violations
		if len(v) != 1 {
			t.Fatalf("%s %q: %d violations", typ, text, len(v))
		}
		c := cardOf(loc, v[0])
		if c.Message != v[0].Message {
			t.Errorf("%s %q: the service's message changed: %q", typ, text, c.Message)
		}
		return *c.Rule
	}
	pl := localeOf(t, "pl")
	r := card(pl, "Int32", "3.5")
	if r.Detail != "Edm.Int32 '3.5': to nie jest liczba całkowita" {
		t.Errorf("pl detail %q", r.Detail)
	}
	if strings.Contains(r.Detail, "not an integer") || strings.HasPrefix(r.Detail, "detail.") {
		t.Errorf("pl detail is English: %q", r.Detail)
	}
	en := locales.English()
	long := strings.Repeat("9", 50)
	for _, c := range [][2]string{{"Int32", "3.5"}, {"Int32", long}, {"Int64", "1.5"}, {"Double", "x"}, {"Guid", "x"}, {"Binary", "!"}, {"Boolean", "yes"},
		{"DateTime", "x"}, {"DateTime", "2021-02-30T00:00:00Z"}, {"DateTime", "1500-01-01T00:00:00Z"}, {"Foo", "x"}} {
		want := card(nil, c[0], c[1])
		if want.DetailID == "" {
			t.Errorf("%s %q: no detail id for %q", c[0], c[1], want.Detail)
		}
		if got := card(en, c[0], c[1]); got.Detail != want.Detail {
			t.Errorf("%s %q: from the catalogue %q, the engine writes %q", c[0], c[1], got.Detail, want.Detail)
		}
		for _, lang := range []string{"pl", "ja", "fr"} {
			if got := card(localeOf(t, lang), c[0], c[1]); got.Detail == want.Detail || strings.HasPrefix(got.Detail, "detail.") {
				t.Errorf("%s %s %q: detail %q", lang, c[0], c[1], got.Detail)
			}
		}
	}
}
