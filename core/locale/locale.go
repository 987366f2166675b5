// Package locale holds one locale's catalogue of the texts the engine writes
// for the page (web/locales/<lang>/rules.json) with that locale's rules for
// plurals and numbers, in the message format web/i18n.js reads: {name}, and
// {n, plural, =0 {…} one {…} few {…} many {…} other {…}} with # for the
// number. The page hands the engine one catalogue at a time, so the engine
// carries no locale's text itself.
package locale

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// MaxCatalogue bounds a catalogue's size in bytes.
const MaxCatalogue = 1 << 20

// MaxDepth bounds how deeply plural branches may nest in one message.
const MaxDepth = 4

// Langs lists the locales the engine knows the plural and number rules
// of, English (the default) first.
func Langs() []string { return []string{"en", "pl", "ja", "fr"} }

// Pseudo is the pseudo-locale of the layout tests: English's rules, its
// texts accented and longer.
const Pseudo = "en-XA"

// Known reports whether lang is one of Langs or Pseudo.
func Known(lang string) bool {
	for _, l := range append(Langs(), Pseudo) {
		if l == lang {
			return true
		}
	}
	return false
}

// Locale is one locale's catalogue and rules. It does not change once
// parsed. A nil Locale answers every message with its id (so a text that
// was never localized shows, and a test sees it).
type Locale struct {
	lang string
	msgs map[string]string
}

// Parse reads a catalogue: one flat JSON object of id → message, each
// message well formed. lang must be one of Langs.
func Parse(lang string, catalogue []byte) (*Locale, error) {
	if !Known(lang) {
		return nil, errors.New("locale: unknown language " + strconv.Quote(lang))
	}
	if len(catalogue) > MaxCatalogue {
		return nil, errors.New("locale: catalogue larger than " + strconv.Itoa(MaxCatalogue) + " bytes")
	}
	if !gjson.ValidBytes(catalogue) {
		return nil, errors.New("locale: catalogue is not JSON")
	}
	doc := gjson.ParseBytes(catalogue)
	if !doc.IsObject() {
		return nil, errors.New("locale: catalogue is not a JSON object")
	}
	l := &Locale{lang: lang, msgs: map[string]string{}}
	var err error
	doc.ForEach(func(k, v gjson.Result) bool {
		if v.Type != gjson.String {
			err = errors.New("locale: " + strconv.Quote(k.Str) + " is not a text")
			return false
		}
		if e := Check(v.Str); e != nil {
			err = errors.New("locale: " + k.Str + ": " + e.Error())
			return false
		}
		l.msgs[k.Str] = v.Str
		return true
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Lang is the locale's language ("en" for a nil Locale).
func (l *Locale) Lang() string {
	if l == nil {
		return "en"
	}
	return l.lang
}

// Has reports whether the catalogue holds id.
func (l *Locale) Has(id string) bool {
	if l == nil {
		return false
	}
	_, ok := l.msgs[id]
	return ok
}

// IDs lists the catalogue's ids (in no order).
func (l *Locale) IDs() []string {
	if l == nil {
		return nil
	}
	out := make([]string, 0, len(l.msgs))
	for id := range l.msgs {
		out = append(out, id)
	}
	return out
}

// Message is message id as the catalogue holds it, unfilled.
func (l *Locale) Message(id string) (string, bool) {
	if l == nil {
		return "", false
	}
	m, ok := l.msgs[id]
	return m, ok
}

// T is message id with its placeholders filled from args, name and value
// in turn ("n", 3, "name", "x"): a number is written for the locale. An id
// the catalogue lacks comes back as itself.
func (l *Locale) T(id string, args ...any) string {
	m, ok := l.Message(id)
	if !ok {
		return id
	}
	return l.Format(m, args...)
}

// Format fills a message's placeholders from args (as T does).
func (l *Locale) Format(msg string, args ...any) string {
	var b strings.Builder
	l.format(&b, msg, args, nil, 0)
	return b.String()
}

func arg(args []any, name string) (any, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if s, ok := args[i].(string); ok && s == name {
			return args[i+1], true
		}
	}
	return nil, false
}

// value writes a placeholder's value: numbers for the locale, texts as
// they are.
func (l *Locale) value(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return l.Int(int64(x))
	case int64:
		return l.Int(x)
	case float64:
		return l.Float(x)
	case nil:
		return ""
	}
	return ""
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// format writes msg filled into b; count is the number # stands for (nil
// outside a plural branch).
func (l *Locale) format(b *strings.Builder, msg string, args []any, count any, depth int) {
	for i := 0; i < len(msg); {
		c := msg[i]
		if c == '#' && count != nil {
			b.WriteString(l.value(count))
			i++
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			i++
			continue
		}
		end := matching(msg, i)
		inner := msg[i+1 : min(end, len(msg))]
		i = end + 1
		name, rest, isPlural := strings.Cut(inner, ",")
		name = strings.TrimSpace(name)
		v, _ := arg(args, name)
		if !isPlural {
			b.WriteString(l.value(v))
			continue
		}
		kind, spec, _ := strings.Cut(rest, ",")
		if strings.TrimSpace(kind) != "plural" || depth >= MaxDepth {
			b.WriteString(l.value(v))
			continue
		}
		n, _ := number(v)
		l.format(b, l.branch(spec, n), args, v, depth+1)
	}
}

// matching is the index of the brace closing the one at open, or len(s).
func matching(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(s)
}

// branch picks the plural branch of "=0 {…} one {…} other {…}" for n.
func (l *Locale) branch(spec string, n float64) string {
	cat := l.Plural(n)
	exact := "=" + strconv.FormatFloat(n, 'f', -1, 64)
	var other, byCat string
	found := false
	for i := 0; i < len(spec); {
		open := strings.IndexByte(spec[i:], '{')
		if open < 0 {
			break
		}
		key := strings.TrimSpace(spec[i : i+open])
		close := matching(spec, i+open)
		text := spec[i+open+1 : min(close, len(spec))]
		i = close + 1
		switch key {
		case exact:
			return text
		case cat:
			byCat, found = text, true
		case "other":
			other = text
		}
	}
	if found {
		return byCat
	}
	return other
}

// Check reports whether a message is well formed: braces balanced, plural
// branches nested at most MaxDepth deep, each plural with an other branch.
func Check(msg string) error {
	return check(msg, 0)
}

func check(msg string, depth int) error {
	if depth > MaxDepth {
		return errors.New("plural branches nest more than " + strconv.Itoa(MaxDepth) + " deep")
	}
	for i := 0; i < len(msg); {
		switch msg[i] {
		case '}':
			return errors.New("a } closes no {")
		case '{':
		default:
			i++
			continue
		}
		end := matching(msg, i)
		if end >= len(msg) {
			return errors.New("a { is not closed")
		}
		inner := msg[i+1 : end]
		i = end + 1
		name, rest, isPlural := strings.Cut(inner, ",")
		if !isPlural {
			if strings.ContainsAny(name, "{}") || strings.TrimSpace(name) == "" {
				return errors.New("a placeholder is not a name")
			}
			continue
		}
		kind, spec, _ := strings.Cut(rest, ",")
		if strings.TrimSpace(kind) != "plural" {
			return errors.New("only plural is known after a placeholder's comma")
		}
		hasOther := false
		for j := 0; j < len(spec); {
			open := strings.IndexByte(spec[j:], '{')
			if open < 0 {
				if strings.TrimSpace(spec[j:]) != "" {
					return errors.New("text after a plural's last branch")
				}
				break
			}
			key := strings.TrimSpace(spec[j : j+open])
			if !pluralKey(key) {
				return errors.New("unknown plural branch " + strconv.Quote(key))
			}
			hasOther = hasOther || key == "other"
			close := matching(spec, j+open)
			if err := check(spec[j+open+1:close], depth+1); err != nil {
				return err
			}
			j = close + 1
		}
		if !hasOther {
			return errors.New("a plural has no other branch")
		}
	}
	return nil
}

func pluralKey(k string) bool {
	switch k {
	case "zero", "one", "two", "few", "many", "other":
		return true
	}
	if len(k) > 1 && k[0] == '=' {
		_, err := strconv.ParseFloat(k[1:], 64)
		return err == nil
	}
	return false
}

// Placeholders lists the names a message fills, each once, in order of
// first use (the plural's own name included).
func Placeholders(msg string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		if depth > MaxDepth {
			return
		}
		for i := 0; i < len(s); {
			if s[i] != '{' {
				i++
				continue
			}
			end := matching(s, i)
			inner := s[i+1 : min(end, len(s))]
			i = end + 1
			name, rest, isPlural := strings.Cut(inner, ",")
			name = strings.TrimSpace(name)
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
			if !isPlural {
				continue
			}
			_, spec, _ := strings.Cut(rest, ",")
			for j := 0; j < len(spec); {
				open := strings.IndexByte(spec[j:], '{')
				if open < 0 {
					break
				}
				close := matching(spec, j+open)
				walk(spec[j+open+1:min(close, len(spec))], depth+1)
				j = close + 1
			}
		}
	}
	walk(msg, 0)
	return out
}
