package lesson

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/web/locales"
)

// identity is an overlay holding the English lessons' own texts, as a
// generic document a test can change.
func identity(t *testing.T, ls []*Lesson) map[string]any {
	t.Helper()
	doc := map[string]any{}
	for _, l := range ls {
		var steps []any
		for _, s := range l.Steps {
			st := map[string]any{"title": s.Title, "text": s.Text, "explain": s.Explain}
			if s.Note != "" {
				st["note"] = s.Note
			}
			if s.Predict != nil {
				choices := []any{}
				for _, c := range s.Predict.Choices {
					choices = append(choices, c)
				}
				st["question"], st["choices"] = s.Predict.Question, choices
			}
			steps = append(steps, st)
		}
		doc[l.ID] = map[string]any{"title": l.Title, "line": l.Line, "summary": l.Summary,
			"section": map[string]any{"title": l.Section.Title}, "steps": steps}
	}
	return doc
}

func rulesOf(t *testing.T, lang string) *locale.Locale {
	t.Helper()
	l, err := locales.In(lang)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func marshal(v any) []byte { b, _ := json.Marshal(v); return b }

// An overlay's texts replace English's and nothing else changes; the
// section links to the locale's edition.
func TestLocalizeOverlays(t *testing.T) {
	ls := loadAll(t)
	doc := identity(t, ls)
	keys := doc["keys"].(map[string]any)
	keys["title"] = "Klucze"
	keys["steps"].([]any)[0].(map[string]any)["title"] = "Pierwszy krok"
	out, err := Localize(rulesOf(t, "pl"), ls, marshal(doc))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range out {
		e := ls[i]
		if l.ID != e.ID || len(l.Steps) != len(e.Steps) || string(l.Start) != string(e.Start) {
			t.Fatalf("%s: the lesson itself changed", e.ID)
		}
		if !strings.Contains(l.Section.URL, "/pl-pl/") {
			t.Errorf("%s: section %s", l.ID, l.Section.URL)
		}
		for j := range l.Steps {
			if (l.Steps[j].Predict == nil) != (e.Steps[j].Predict == nil) || l.Steps[j].Predict != nil && l.Steps[j].Predict.Answer != e.Steps[j].Predict.Answer {
				t.Errorf("%s step %d: the prediction changed", l.ID, j+1)
			}
		}
		if l.ID == "keys" && (l.Title != "Klucze" || l.Steps[0].Title != "Pierwszy krok" || e.Title == "Klucze") {
			t.Errorf("keys: %q / %q (English %q)", l.Title, l.Steps[0].Title, e.Title)
		}
	}
	menu, err := Menu(os.DirFS("../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(MenuIn(menu, marshal(doc))); !strings.Contains(got, `"title":"Klucze"`) {
		t.Errorf("menu: %s", got)
	}
}

// An overlay that does not match its lessons is refused, saying where.
func TestLocalizeRefuses(t *testing.T) {
	ls := loadAll(t)
	step := func(doc map[string]any, id string, i int) map[string]any {
		return doc[id].(map[string]any)["steps"].([]any)[i].(map[string]any)
	}
	firstWith := func(f func(Step) bool) (string, int) {
		for _, l := range ls {
			for i, s := range l.Steps {
				if f(s) {
					return l.ID, i
				}
			}
		}
		t.Fatal("no such step")
		return "", 0
	}
	withPlaceholder, pi := firstWith(func(s Step) bool { return strings.Contains(s.Explain, "{status}") })
	withCode, ci := firstWith(func(s Step) bool { return strings.Count(s.Text, "`") >= 2 })
	withQuestion, qi := firstWith(func(s Step) bool { return s.Predict != nil })
	without, wi := firstWith(func(s Step) bool { return s.Predict == nil && s.Note == "" })
	cases := map[string]func(doc map[string]any){
		"a lesson missing": func(doc map[string]any) { delete(doc, "keys") },
		"an extra lesson":  func(doc map[string]any) { doc["no-such-lesson"] = doc["keys"] },
		"a step missing": func(doc map[string]any) {
			l := doc["keys"].(map[string]any)
			l["steps"] = l["steps"].([]any)[1:]
		},
		"an unknown field": func(doc map[string]any) { step(doc, "keys", 0)["answer"] = 1 },
		"a placeholder renamed": func(doc map[string]any) {
			s := step(doc, withPlaceholder, pi)
			s["explain"] = strings.Replace(s["explain"].(string), "{status}", "{stan}", 1)
		},
		"a code span translated": func(doc map[string]any) {
			s := step(doc, withCode, ci)
			txt := s["text"].(string)
			a := strings.Index(txt, "`")
			s["text"] = txt[:a+1] + "przetłumaczone " + txt[a+1:]
		},
		"a choice missing": func(doc map[string]any) {
			s := step(doc, withQuestion, qi)
			s["choices"] = s["choices"].([]any)[1:]
		},
		"a question added": func(doc map[string]any) { step(doc, without, wi)["question"] = "Co?" },
		"a note added":     func(doc map[string]any) { step(doc, without, wi)["note"] = "Uwaga" },
		"an empty title":   func(doc map[string]any) { doc["keys"].(map[string]any)["title"] = " " },
	}
	loc := rulesOf(t, "pl")
	for name, edit := range cases {
		doc := identity(t, ls)
		edit(doc)
		if _, err := Localize(loc, ls, marshal(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, bad := range []string{`[]`, `{"keys": 1}`, `{} {}`} {
		if _, err := Localize(loc, ls, []byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestLessonsInEveryLocale runs every lesson in every locale whose lessons
// overlay the tree holds, each step's explanation filled in that locale;
// a locale with a page catalogue (ui.json) must have its lessons too.
func TestLessonsInEveryLocale(t *testing.T) {
	ls := loadAll(t)
	for _, lang := range locale.Langs() {
		dir := filepath.Join("../../web/locales", lang)
		loc := rulesOf(t, lang)
		var err error
		lessons := ls
		if lang != "en" {
			b, rerr := os.ReadFile(filepath.Join(dir, "lessons.json"))
			if errors.Is(rerr, os.ErrNotExist) {
				if _, uerr := os.Stat(filepath.Join(dir, "ui.json")); uerr == nil {
					t.Errorf("web/locales/%s has ui.json but no lessons.json: the lessons are not in %s", lang, lang)
				}
				continue
			}
			if rerr != nil {
				t.Fatal(rerr)
			}
			if lessons, err = Localize(loc, ls, b); err != nil {
				t.Errorf("%s: %v", lang, err)
				continue
			}
		}
		for _, l := range lessons {
			t.Run(lang+"/"+l.ID, func(t *testing.T) {
				s := newSession()
				s.API.Locale = loc
				if err := s.Start(l); err != nil {
					t.Fatal(err)
				}
				for i := range l.Steps {
					r := s.Run(i)
					for _, d := range r.Diffs {
						t.Errorf("step %d: %s", i+1, d)
					}
					if strings.Contains(r.Explanation, "lesson.figure.") || strings.ContainsAny(r.Explanation, "{}") && !strings.ContainsAny(l.Steps[i].Explain, "`") {
						t.Errorf("step %d: explanation not filled: %s", i+1, r.Explanation)
					}
				}
			})
		}
	}
}
