package locale

import (
	"testing"
	"unicode/utf8"
)

// FuzzParse holds the catalogue parser and the message format to their
// bounds: no input panics, a parsed message fills without panicking and
// its output stays within a bound of its input (no branch repeats text).
func FuzzParse(f *testing.F) {
	f.Add(`{"a": "{n, plural, =0 {none} one {# x} few {# y} many {# z} other {# w}} in {t}"}`)
	f.Add(`{"a": "{{}}", "b": "#"}`)
	f.Add(`{"a": "{n, plural, other {{n, plural, other {#}}}}"}`)
	f.Fuzz(func(t *testing.T, doc string) {
		for _, lang := range Langs() {
			l, err := Parse(lang, []byte(doc))
			if err != nil {
				continue
			}
			for _, id := range l.IDs() {
				m, _ := l.Message(id)
				out := l.T(id, "n", 1234567, "t", "x")
				if utf8.ValidString(m) && len(out) > 40*(len(m)+1) {
					t.Fatalf("%q filled to %d bytes", m, len(out))
				}
				Placeholders(m)
			}
		}
		// Format takes unchecked text too.
		en, _ := Parse("en", []byte(`{}`))
		en.Format(doc, "n", 2.5)
		Placeholders(doc)
		_ = Check(doc)
	})
}
