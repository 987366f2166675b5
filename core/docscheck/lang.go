package docscheck

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/web/locales"
)

// htmlLang finds a page's own <html lang="…">: an embed without a lang
// attribute shows the host page's language (web/i18n.js embedLang).
var htmlLang = regexp.MustCompile(`(?i)<html\b[^>]*\blang\s*=\s*["']?([A-Za-z0-9-]+)`)

// pageLang is the language a checked file's embeds default to ("" when
// the file does not say, as a Markdown page rendered by a generator).
func pageLang(text []byte) string {
	head := text
	if len(head) > 4096 {
		head = head[:4096]
	}
	if m := htmlLang.FindSubmatch(head); m != nil {
		return string(m[1])
	}
	return ""
}

// supported is the playground's locale a language tag asks for, as the
// page matches it (its primary subtag), or "".
func supported(tag string) string {
	base := strings.ToLower(strings.SplitN(strings.SplitN(tag, "-", 2)[0], "_", 2)[0])
	for _, l := range locale.Langs() {
		if l == base {
			return l
		}
	}
	return ""
}

// language is the locale an example is shown in, and a problem when its
// lang attribute names one the playground does not speak (the embed would
// fall back to another).
func (c *Checker) language(ex Example, page string) (string, string) {
	if tag, ok := ex.Attr("lang"); ok {
		l := supported(tag)
		if l == "" {
			return "", fmt.Sprintf("lang=%q: the playground speaks %s; this embed would be shown in another language", tag, strings.Join(locale.Langs(), ", "))
		}
		return l, ""
	}
	if l := supported(page); l != "" {
		return l, ""
	}
	return "en", ""
}

// lessonsIn are the lessons as an embed in lang shows them: English's, or
// the locale's overlay on them (InLanguage), read once per locale.
func (c *Checker) lessonsIn(lang string) ([]*lesson.Lesson, error) {
	if lang == "en" || c.InLanguage == nil {
		return c.Lessons, nil
	}
	if c.localized == nil {
		c.localized = map[string][]*lesson.Lesson{}
	}
	if ls, ok := c.localized[lang]; ok {
		return ls, nil
	}
	ls, err := c.InLanguage(lang, c.Lessons)
	if err != nil {
		return nil, fmt.Errorf("the lessons in %s: %v", lang, err)
	}
	c.localized[lang] = ls
	return ls, nil
}

// LessonsIn returns the lessons as a page in lang shows them: the locale's
// overlay (web/locales) on the English lessons, checked as the page checks
// it (lesson.Localize). It is check-docs' Checker.InLanguage.
func LessonsIn(lang string, english []*lesson.Lesson) ([]*lesson.Lesson, error) {
	loc, err := locales.In(lang)
	if err != nil {
		return nil, err
	}
	overlay, err := locales.Part(lang, "lessons")
	if err != nil {
		return nil, err
	}
	return lesson.Localize(loc, english, overlay)
}
