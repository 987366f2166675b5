package entity

import (
	"unicode"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/tableerr"
)

// ValidPropertyName reports whether name follows the identifier rule of
// F-PROPERTY-NAMES: a letter (Lu Ll Lt Lm Lo Nl) or '_' first, then letters, marks
// (Mn Mc), digits (Nd), connectors (Pc) and format characters (Cf).
func ValidPropertyName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if r == utf8.RuneError {
			return false
		}
		if isLetter(r) || r == '_' {
			continue
		}
		if i > 0 && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Cf) {
			continue
		}
		return false
	}
	return true
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl)
}

// nameViolation checks a custom property's name: length first, then the
// identifier rule.
// n is the name's length in UTF-16 code units.
func nameViolation(name string, n int) *tableerr.Error {
	if n > MaxPropertyName {
		return tableerr.Broke(tableerr.PropertyNameTooLong, tableerr.Rule{
			ID: "property-name-too-long", Property: name,
			Measure:   &tableerr.Measure{Value: int64(n), Limit: MaxPropertyName, Unit: "characters"},
			Statement: "A property name is at most 255 characters long.",
			Section:   secPropNames, DocURL: dataModelURL + "#property-names",
		})
	}
	if !ValidPropertyName(name) {
		detail, id, args := badNameDetail(name)
		return tableerr.Broke(tableerr.PropertyNameInvalid, tableerr.Rule{
			ID: "property-name-invalid", Property: name, Detail: detail, DetailID: id, DetailArgs: args,
			Statement: "A property name follows C# identifier rules: a letter or underscore first, then letters, digits and underscores; no dashes, spaces or dots.",
			Section:   secPropNames, DocURL: dataModelURL + "#property-names",
		})
	}
	return nil
}

// badNameDetail says where a name breaks the identifier rule, in English
// and as a catalogue detail id with its values.
func badNameDetail(name string) (string, string, []any) {
	if name == "" {
		return "the name is empty", "name-empty", nil
	}
	pos := 0
	for i, r := range name {
		if !(isLetter(r) || r == '_' || i > 0 && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Cf)) {
			return quoteRune(r) + " at character " + itoa(pos+1) + " (counting from 1)", "at-character", []any{"char", quoteRune(r), "n", pos + 1}
		}
		pos++
	}
	return "", "", nil
}
