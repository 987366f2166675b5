package locales_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/web/locales"
)

// usedIDs are the ids of every engine text: each package that writes
// texts for the page declares its own.
func usedIDs() map[string]bool {
	ids := map[string]bool{}
	for _, list := range [][]string{play.MessageIDs(), lesson.MessageIDs(), codegen.MessageIDs()} {
		for _, id := range list {
			ids[id] = true
		}
	}
	return ids
}

func readRules(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(lang, "rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := locale.Parse(lang, b); err != nil {
		t.Fatalf("%s/rules.json: %v", lang, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCatalogues holds every locale's rules.json to the code: each id the
// engine uses is there with English's placeholders, and no other id is.
func TestCatalogues(t *testing.T) {
	used := usedIDs()
	en := readRules(t, "en")
	for _, lang := range append(locale.Langs(), locale.Pseudo) {
		m := readRules(t, lang)
		for id := range used {
			msg, ok := m[id]
			if !ok {
				t.Errorf("%s/rules.json lacks %s", lang, id)
				continue
			}
			if got, want := sorted(locale.Placeholders(msg)), sorted(locale.Placeholders(en[id])); got != want {
				t.Errorf("%s %s: placeholders %s, English has %s", lang, id, got, want)
			}
		}
		for id := range m {
			if !used[id] {
				t.Errorf("%s/rules.json holds %s, which no engine code uses", lang, id)
			}
		}
	}
}

func sorted(s []string) string {
	c := append([]string{}, s...)
	sort.Strings(c)
	return strings.Join(c, ",")
}

// The English catalogue's comments and notes of generated programs are
// what the generators write.
func TestCodeTextsAreTheGenerators(t *testing.T) {
	en := locales.English()
	comments, notes, args := codegen.English()
	for id, want := range comments {
		if got, _ := en.Message(id); got != want {
			t.Errorf("%s: the catalogue has %q, the generators write %q", id, got, want)
		}
	}
	for id, want := range notes {
		if got := en.T(id, args[id]...); got != want {
			t.Errorf("%s: the catalogue makes %q, the generators write %q", id, got, want)
		}
	}
}

// TestEnglishLoads proves the embedded English is the file and reads.
func TestEnglishLoads(t *testing.T) {
	l := locales.English()
	if l.Lang() != "en" || len(l.IDs()) != len(readRules(t, "en")) {
		t.Errorf("English() holds %d texts", len(l.IDs()))
	}
}

type glossary struct {
	Terms map[string]struct {
		Term  string   `json:"term"`
		Avoid []string `json:"avoid"`
	} `json:"terms"`
}

func readGlossary(t *testing.T, lang string) glossary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(lang, "glossary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g glossary
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// stems are the parts of a term that every inflected form keeps: Polish
// declines nouns and adjectives at their ends (klucz partycji, kluczem
// partycji; jednostka, jednostki, jednostek), French adds an s, Japanese
// does not inflect.
func stems(lang, term string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(term)) {
		n := utf8.RuneCountInString(w)
		switch {
		case lang == "pl" && n >= 5:
			w = string([]rune(w)[:n-2])
		case lang == "pl" && n >= 4:
			w = string([]rune(w)[:n-1])
		}
		out = append(out, w)
	}
	if lang == "ja" {
		return []string{strings.ReplaceAll(strings.ToLower(term), " ", "")}
	}
	return out
}

// englishUse finds an English term as reader text: its words in lower case
// (or capitalized at a sentence's start), with an s, es or ies, standing
// after a space or a parenthesis: never inside an identifier (PartitionKey,
// Azure.Data.Tables, @azure/data-tables) or a {placeholder}.
func englishUse(term string) *regexp.Regexp {
	words := strings.Fields(term)
	for i, w := range words {
		stem := w
		if strings.HasSuffix(w, "y") {
			stem = w[:len(w)-1] + "(?:y|ies)"
		} else {
			stem = w + "(?:s|es)?"
		}
		if i == 0 {
			stem = "[" + strings.ToUpper(w[:1]) + w[:1] + "]" + stem[1:]
		}
		words[i] = stem
	}
	return regexp.MustCompile(`(?:^|[\s(])` + strings.Join(words, " ") + `\b`)
}

// readerText is a message without its placeholders, code spans, quoted
// literals ("tables") and the product names (the Table service, Azure Table
// Storage, Cosmos DB for Table).
func readerText(s string) string {
	s = regexp.MustCompile("`[^`]*`|\"[^\"]*\"|\\{[A-Za-z]+\\}").ReplaceAllString(s, " ")
	return strings.NewReplacer("Table service", " ", "Cosmos DB for Table", " ", "Azure Table Storage", " ").Replace(s)
}

// usesTerm reports whether a locale's text uses the locale's term in some
// form (ja: the katakana words may stand with or without their space).
func usesTerm(lang, text, term string) bool {
	low := strings.ToLower(text)
	if lang == "ja" {
		low = strings.ReplaceAll(low, " ", "")
	}
	for _, s := range stems(lang, term) {
		if !strings.Contains(low, s) {
			return false
		}
	}
	return true
}

// checkTerms compares one English text with its translation: where English
// uses a glossary term, the translation uses the locale's, and it never
// uses a word the glossary says to avoid.
func checkTerms(t *testing.T, lang, where, english, text string, en, g glossary) {
	t.Helper()
	for key, e := range en.Terms {
		lt, ok := g.Terms[key]
		if !ok {
			t.Fatalf("%s glossary lacks %s", lang, key)
		}
		if englishUse(e.Term).MatchString(readerText(english)) && !usesTerm(lang, readerText(text), lt.Term) {
			t.Errorf("%s %s: English says %q, the text does not use %q: %s", lang, where, e.Term, lt.Term, text)
		}
		for _, bad := range lt.Avoid {
			if strings.Contains(strings.ToLower(text), strings.ToLower(bad)) {
				t.Errorf("%s %s: uses %q, which the glossary avoids: %s", lang, where, bad, text)
			}
		}
	}
}

// TestGlossary holds the engine's texts and the lessons to each locale's
// glossary.
func TestGlossary(t *testing.T) {
	en := readGlossary(t, "en")
	english := readRules(t, "en")
	englishLessons := lessonTexts(t, "")
	for _, lang := range locale.Langs()[1:] {
		g := readGlossary(t, lang)
		for id, msg := range readRules(t, lang) {
			checkTerms(t, lang, id, english[id], msg, en, g)
		}
		if _, err := os.Stat(filepath.Join(lang, "lessons.json")); err != nil {
			continue // TestLessonOverlays in core/lesson requires it
		}
		for where, text := range lessonTexts(t, lang) {
			checkTerms(t, lang, where, englishLessons[where], text, en, g)
		}
	}
}

// lessonTexts are the lessons' reader texts by place ("keys step 2 text"):
// English's from lessons/, a locale's from its overlay.
func lessonTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	out := map[string]string{}
	add := func(id string, l map[string]any) {
		for _, f := range []string{"title", "line", "summary"} {
			if s, ok := l[f].(string); ok {
				out[id+" "+f] = s
			}
		}
		if s, ok := l["section"].(map[string]any); ok {
			out[id+" section"], _ = s["title"].(string)
		}
		steps, _ := l["steps"].([]any)
		for i, x := range steps {
			st, _ := x.(map[string]any)
			p := id + " step " + itoa(i+1)
			for _, f := range []string{"title", "text", "explain", "note", "question"} {
				if s, ok := st[f].(string); ok {
					out[p+" "+f] = s
				}
			}
			if pr, ok := st["predict"].(map[string]any); ok {
				out[p+" question"], _ = pr["question"].(string)
				st = pr
			}
			cs, _ := st["choices"].([]any)
			for j, c := range cs {
				out[p+" choice "+itoa(j+1)], _ = c.(string)
			}
		}
	}
	if lang == "" {
		files, _ := filepath.Glob("../../lessons/*.json")
		for _, f := range files {
			b, _ := os.ReadFile(f)
			var l map[string]any
			if json.Unmarshal(b, &l) != nil {
				t.Fatalf("%s: not JSON", f)
			}
			add(strings.TrimSuffix(filepath.Base(f), ".json"), l)
		}
		return out
	}
	b, err := os.ReadFile(filepath.Join(lang, "lessons.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s/lessons.json: %v", lang, err)
	}
	for id, l := range doc {
		add(id, l)
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
