package codegen

import (
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/web/locales"
)

func rules(t *testing.T, lang string) *locale.Locale {
	t.Helper()
	l, err := locales.In(lang)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// uncommented is a program without its whole-line comments.
func uncommented(code, marker string) string {
	var out []string
	for _, l := range strings.Split(code, "\n") {
		if !strings.HasPrefix(strings.TrimLeft(l, " \t"), marker) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// In another locale a program's code is the English program's, line for
// line; its comments and notes are the locale's, every one of them.
func TestCommentsFollowTheLocale(t *testing.T) {
	e := &entity.Entity{PartitionKey: "p", RowKey: "r", Properties: []entity.Property{
		{Name: "N", Value: edm.Int64Value(1 << 60)}, {Name: "D", Value: edm.DoubleValue(20)}, {Name: "G", Value: edm.GuidValue([16]byte{1, 2, 3})}}}
	ops := []op.Operation{
		{Kind: op.Insert, Table: "People", Entity: e},
		{Kind: op.Query, Table: "People"},
		{Kind: op.Delete, Table: "People", Entity: &entity.Entity{PartitionKey: "p", RowKey: "r"}},
	}
	english := map[string]bool{}
	for _, c := range commentTexts() {
		english[c[1]] = true
	}
	for _, n := range noteTexts() {
		english[n.english] = true
	}
	for _, lang := range []string{"pl", "ja", "fr"} {
		loc := rules(t, lang)
		for _, o := range ops {
			for _, language := range Languages() {
				en, err := For(o, language, Options{CreateTable: true})
				if err != nil {
					t.Fatal(err)
				}
				lo, err := For(o, language, Options{CreateTable: true, Locale: loc})
				if err != nil {
					t.Fatal(err)
				}
				marker := "// "
				if language == Python || language == Curl {
					marker = "# "
				}
				if uncommented(lo.Code, marker) != uncommented(en.Code, marker) {
					t.Errorf("%s %s %s: the code changed:\n%s", lang, language, o.Kind, lo.Code)
				}
				for _, l := range strings.Split(lo.Code, "\n") {
					text, ok := strings.CutPrefix(strings.TrimLeft(l, " \t"), marker)
					if ok && english[text] {
						t.Errorf("%s %s: a comment left in English: %s", lang, language, l)
					}
				}
				if lo.Code == en.Code {
					t.Errorf("%s %s %s: no comment changed", lang, language, o.Kind)
				}
				for i, n := range lo.Notes {
					if english[n] || strings.HasPrefix(n, "code.") {
						t.Errorf("%s %s note %d not in %s: %s", lang, language, i, lang, n)
					}
				}
			}
		}
	}
}

func TestMatchTemplates(t *testing.T) {
	args, ok := match("Operation {n}: {kind}.", "Operation 3: insert.")
	if !ok || len(args) != 4 || args[1] != "3" || args[3] != "insert" {
		t.Errorf("match: %v %v", args, ok)
	}
	for _, s := range []string{"Operation 3 insert.", "Operation 3: insert", "Runs 3: x."} {
		if _, ok := match("Operation {n}: {kind}.", s); ok {
			t.Errorf("%q matched", s)
		}
	}
	if args, ok := match("Runs against {endpoint}.", "Runs against http://h:1/a."); !ok || args[1] != "http://h:1/a" {
		t.Errorf("endpoint: %v", args)
	}
}
