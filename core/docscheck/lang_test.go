package docscheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/lesson"
)

// TestEmbedsInEveryLanguage: a lesson embed runs in the language it is
// shown in (its lang attribute, else the page's <html lang>), through that
// locale's lessons, and passes in each; a lang the playground does not speak
// is a problem, a page in another language is English.
func TestEmbedsInEveryLanguage(t *testing.T) {
	c := checker(t)
	c.InLanguage = LessonsIn
	for _, page := range []string{
		`<html lang="pl"><body><table-playground lesson="etags"></table-playground>`,
		`<html lang="ja-JP"><body><table-playground lesson="partition-design" steps="1-2"></table-playground>`,
		`<html lang="en"><body><table-playground lesson="writes" lang="fr"></table-playground>`,
		`<html lang="de"><body><table-playground lesson="keys"></table-playground>`,
	} {
		if n, problems := c.Check("p.html", []byte(page)); n != 1 || len(problems) != 0 {
			t.Errorf("%s: %d examples, %v", page, n, problems)
		}
	}
	for lang := range map[string]bool{"pl": true, "ja": true, "fr": true} {
		if _, ok := c.localized[lang]; !ok {
			t.Errorf("no lesson was checked in %s", lang)
		}
	}
	_, problems := c.Check("p.md", []byte(`<table-playground lesson="etags" lang="de"></table-playground>`))
	if len(problems) != 1 || !strings.Contains(problems[0].Message, `lang="de"`) {
		t.Errorf("lang=de: %v", problems)
	}
}

// TestABrokenLocaleIsReported: a locale whose lessons cannot be had fails
// its embeds, and the English ones still pass.
func TestABrokenLocaleIsReported(t *testing.T) {
	c := checker(t)
	c.InLanguage = func(lang string, english []*lesson.Lesson) ([]*lesson.Lesson, error) {
		return nil, errors.New("lessons overlay: no etags")
	}
	_, problems := c.Check("p.html", []byte(`<html lang="pl"><table-playground lesson="etags"></table-playground>`))
	if len(problems) != 1 || !strings.Contains(problems[0].Message, "the lessons in pl") {
		t.Errorf("got %v", problems)
	}
	if _, problems := c.Check("p.html", []byte(`<html lang="en"><table-playground lesson="etags"></table-playground>`)); len(problems) != 0 {
		t.Errorf("English: %v", problems)
	}
}
