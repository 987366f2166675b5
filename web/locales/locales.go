// Package locales holds the catalogues of the engine's texts (rules.json)
// and the lessons' overlays (lessons.json) of every locale, for the code
// that runs outside the page: the native commands and the tests. The page's engine does not link it: the page
// fetches the shown locale's catalogue and hands it over (setLocale), so
// the engine's download carries no locale's text.
package locales

import (
	"embed"
	"fmt"

	"github.com/tableplay/tableplay/core/locale"
)

//go:embed en/rules.json
var englishRules []byte

//go:embed */rules.json */lessons.json
var files embed.FS

// Part is one part of a locale's catalogue as the page fetches it
// (lang/rules.json, lang/lessons.json).
func Part(lang, part string) ([]byte, error) {
	b, err := files.ReadFile(lang + "/" + part + ".json")
	if err != nil {
		return nil, fmt.Errorf("no %s for %s", part, lang)
	}
	return b, nil
}

// In is lang's catalogue of the engine's texts (lang/rules.json), parsed.
func In(lang string) (*locale.Locale, error) {
	b, err := Part(lang, "rules")
	if err != nil {
		return nil, err
	}
	return locale.Parse(lang, b)
}

// English is the English catalogue, parsed.
func English() *locale.Locale {
	l, err := locale.Parse("en", englishRules)
	if err != nil {
		// The repository's tests parse every catalogue: this is a bad build.
		panic("web/locales/en/rules.json: " + err.Error())
	}
	return l
}
