package pageapi

import (
	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tidwall/gjson"
)

// localeState is the reader's language as the page last set it: the
// catalogue of the engine's texts and the lessons overlay (nil for
// English, whose lessons are the files themselves). gen counts the
// settings, so the lessons know when to take the overlay again.
type localeState struct {
	loc     *locale.Locale
	overlay []byte
	gen     int
}

// setLocale makes lang the language of every text the engine writes for
// the page from the next call on: rules is that locale's rules.json and
// lessons its lessons.json (left out, or null, for English). A catalogue
// that does not read leaves the language as it was. The overlay is checked
// against the lessons when they are first needed (decoding every lesson
// here would cost the first render), and a call that needs them answers
// what is wrong with it.
func setLocale(c *Call) string {
	loc, err := locale.Parse(c.Str(0), c.Bytes(1))
	if err != nil {
		return err.Error()
	}
	overlay := c.Bytes(2)
	switch {
	case len(overlay) == 0 || string(overlay) == "null":
		overlay = nil
	case len(overlay) > 4*lesson.MaxFile || !gjson.ValidBytes(overlay) || !gjson.ParseBytes(overlay).IsObject():
		return "lessons: not a lessons overlay (a JSON object of lesson id → texts)"
	}
	e := c.Env
	e.locale = localeState{loc: loc, overlay: overlay, gen: e.locale.gen + 1}
	e.lessons.by.Locale = loc
	return ""
}

// api is the API the call's account answers with, its texts in the reader's
// language.
func api(c *Call) *play.API { return c.Account.API.In(c.Env.locale.loc) }
