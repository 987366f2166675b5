package pageapi

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/lessons"
)

func catalogue(t *testing.T, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../../web/locales/" + lang + "/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// overlayOf is an overlay of the engine's lessons whose texts are English
// with mark before each title (the texts' parts unchanged, so it loads).
func overlayOf(t *testing.T, mark string) string {
	t.Helper()
	ls, err := lesson.Load(lessons.Files)
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{}
	for _, l := range ls {
		var steps []map[string]any
		for _, s := range l.Steps {
			st := map[string]any{"title": mark + s.Title, "text": s.Text, "explain": s.Explain}
			if s.Note != "" {
				st["note"] = s.Note
			}
			if s.Predict != nil {
				st["question"], st["choices"] = s.Predict.Question, s.Predict.Choices
			}
			steps = append(steps, st)
		}
		doc[l.ID] = map[string]any{"title": mark + l.Title, "line": l.Line, "summary": l.Summary,
			"section": map[string]any{"title": l.Section.Title}, "steps": steps}
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

// The page hands over a locale; from then on the engine's texts are that
// locale's: a rule card's statement and Learn link, an explanation, the
// lessons menu and a lesson's section link.
func TestSetLocale(t *testing.T) {
	env := newEnv()
	if out := env.Invoke(row(t, "setLocale"), []any{"pl", catalogue(t, "pl"), overlayOf(t, "PL ")}); out != "" {
		t.Fatalf("setLocale: %s", out)
	}
	card := invoke(t, env, "validateTableName", "1abc")["violations"].([]any)[0].(map[string]any)
	rule := card["rule"].(map[string]any)
	if rule["statement"] != "Nazwa tabeli zaczyna się od litery, nie od cyfry." {
		t.Errorf("statement %q", rule["statement"])
	}
	if !strings.Contains(rule["docUrl"].(string), "/pl-pl/") {
		t.Errorf("docUrl %q", rule["docUrl"])
	}
	if card["message"] != "The specifed resource name contains invalid characters." {
		t.Errorf("the service's message changed: %q", card["message"])
	}
	ex := invoke(t, env, "explainFilter", "devstoreaccount1", "PartitionKey eq 'a'")
	if s := ex["keyRange"].(map[string]any)["statement"].(string); !strings.HasPrefix(s, "Przeszukuje jedną partycję") {
		t.Errorf("keyRange.statement %q", s)
	}
	var menu []map[string]any
	if err := json.Unmarshal([]byte(env.Invoke(row(t, "lessons"), nil)), &menu); err != nil || len(menu) == 0 {
		t.Fatalf("menu: %v", err)
	}
	if !strings.HasPrefix(menu[0]["title"].(string), "PL ") {
		t.Errorf("menu title %q", menu[0]["title"])
	}
	l := invoke(t, env, "lesson", menu[0]["id"])
	if u := l["section"].(map[string]any)["url"].(string); !strings.Contains(u, "/pl-pl/") || !strings.HasPrefix(l["title"].(string), "PL ") {
		t.Errorf("lesson %q at %q", l["title"], u)
	}

	// Back to English, with no overlay.
	if out := env.Invoke(row(t, "setLocale"), []any{"en", catalogue(t, "en")}); out != "" {
		t.Fatalf("setLocale en: %s", out)
	}
	if l := invoke(t, env, "lesson", menu[0]["id"]); strings.HasPrefix(l["title"].(string), "PL ") {
		t.Errorf("English lesson still %q", l["title"])
	}
}

// A catalogue that does not read is refused and the language stays.
func TestSetLocaleRefuses(t *testing.T) {
	env := newEnv()
	env.Invoke(row(t, "setLocale"), []any{"fr", catalogue(t, "fr")})
	for _, args := range [][]any{{"de", catalogue(t, "en")}, {"pl", `{"a": "{n"}`}, {"pl", `[]`}, {"pl", catalogue(t, "pl"), `[1]`}} {
		if out := env.Invoke(row(t, "setLocale"), args); out == "" {
			t.Errorf("setLocale(%.20v) accepted", args)
		}
	}
	rule := invoke(t, env, "validateTableName", "ab")["violations"].([]any)[0].(map[string]any)["rule"].(map[string]any)
	if rule["statement"] != "Un nom de table compte au moins 3 caractères." {
		t.Errorf("statement %q after refused switches", rule["statement"])
	}
	// An overlay that does not match the lessons: the lesson calls say so.
	env.Invoke(row(t, "setLocale"), []any{"pl", catalogue(t, "pl"), `{"keys": {"title": "Klucze"}}`})
	if e, _ := invoke(t, env, "lesson", "keys")["error"].(string); !strings.Contains(e, "lessons overlay") {
		t.Errorf("a bad overlay answered %q", e)
	}
}
