// Package locales holds the English catalogue of the engine's texts
// (en/rules.json), for the code that runs outside the page: the native
// commands and the tests. The page's engine does not link it: the page
// fetches the shown locale's catalogue and hands it over (setLocale), so
// the engine's download carries no locale's text.
package locales

import (
	_ "embed"

	"github.com/tableplay/tableplay/core/locale"
)

//go:embed en/rules.json
var englishRules []byte

// English is the English catalogue, parsed.
func English() *locale.Locale {
	l, err := locale.Parse("en", englishRules)
	if err != nil {
		// The repository's tests parse every catalogue: this is a bad build.
		panic("web/locales/en/rules.json: " + err.Error())
	}
	return l
}
