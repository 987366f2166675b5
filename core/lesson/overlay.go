package lesson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tableplay/tableplay/core/locale"
	"github.com/tidwall/gjson"
)

// A locale's lessons overlay (web/locales/<lang>/lessons.json) holds the
// reader-facing texts of every lesson, keyed by lesson id; everything else
// (the start account, the operations, the expectations, the answer index)
// is the English lesson's.
type overlayLesson struct {
	Title   string         `json:"title"`
	Line    string         `json:"line"`
	Summary string         `json:"summary"`
	Section overlaySection `json:"section"`
	Steps   []overlayStep  `json:"steps"`
}

type overlaySection struct {
	Title string `json:"title"`
}

type overlayStep struct {
	Title    string   `json:"title"`
	Text     string   `json:"text"`
	Explain  string   `json:"explain"`
	Note     *string  `json:"note,omitempty"`
	Question *string  `json:"question,omitempty"`
	Choices  []string `json:"choices,omitempty"`
}

// Localize returns the lessons with the texts of a locale's overlay: each
// lesson a copy, its section linked to the locale's edition of the page.
// The overlay must hold every lesson and no other, each with the English
// lesson's steps in number and parts (a note, a question and its choices
// exactly where English has them), every explanation's {placeholders} and
// every text's `code` spans as English has them, and no field the format
// does not name.
func Localize(loc *locale.Locale, lessons []*Lesson, overlay []byte) ([]*Lesson, error) {
	if len(overlay) > MaxFile*4 {
		return nil, fmt.Errorf("lessons overlay larger than %d bytes", MaxFile*4)
	}
	dec := json.NewDecoder(bytes.NewReader(overlay))
	dec.DisallowUnknownFields()
	var doc map[string]*overlayLesson
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("lessons overlay: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("lessons overlay: data after the object")
	}
	known := map[string]bool{}
	out := make([]*Lesson, len(lessons))
	for i, l := range lessons {
		known[l.ID] = true
		o := doc[l.ID]
		if o == nil {
			return nil, fmt.Errorf("lessons overlay: no %s", l.ID)
		}
		x, err := overlaid(loc, l, o)
		if err != nil {
			return nil, fmt.Errorf("lessons overlay: %s: %v", l.ID, err)
		}
		out[i] = x
	}
	for id := range doc {
		if !known[id] {
			return nil, fmt.Errorf("lessons overlay: %s is not a lesson", id)
		}
	}
	return out, nil
}

// overlaid is l with o's texts, checked against l's.
func overlaid(loc *locale.Locale, l *Lesson, o *overlayLesson) (*Lesson, error) {
	if len(o.Steps) != len(l.Steps) {
		return nil, fmt.Errorf("%d steps, the lesson has %d", len(o.Steps), len(l.Steps))
	}
	x := *l
	x.Title, x.Line, x.Summary = o.Title, o.Line, o.Summary
	x.Section = Section{Title: o.Section.Title, URL: loc.LearnURL(l.Section.URL)}
	for _, f := range [][3]string{{"title", l.Title, o.Title}, {"line", l.Line, o.Line}, {"summary", l.Summary, o.Summary}, {"section.title", l.Section.Title, o.Section.Title}} {
		if err := sameParts(f[0], f[1], f[2]); err != nil {
			return nil, err
		}
	}
	x.Steps = make([]Step, len(l.Steps))
	for i, s := range l.Steps {
		os := o.Steps[i]
		if err := stepParts(s, os); err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		s.Title, s.Text, s.Explain = os.Title, os.Text, os.Explain
		if os.Note != nil {
			s.Note = *os.Note
		}
		if s.Predict != nil {
			p := *s.Predict
			p.Question, p.Choices = *os.Question, os.Choices
			s.Predict = &p
		}
		x.Steps[i] = s
	}
	return &x, nil
}

// stepParts checks that a step's overlay has the English step's parts.
func stepParts(s Step, o overlayStep) error {
	if (o.Note != nil) != (s.Note != "") {
		return errors.New("a note where English has none, or none where it has one")
	}
	if (o.Question != nil) != (s.Predict != nil) {
		return errors.New("a question where English has none, or none where it has one")
	}
	if s.Predict != nil && len(o.Choices) != len(s.Predict.Choices) {
		return fmt.Errorf("%d choices, English has %d", len(o.Choices), len(s.Predict.Choices))
	}
	if s.Predict == nil && o.Choices != nil {
		return errors.New("choices without a question")
	}
	pairs := [][3]string{{"title", s.Title, o.Title}, {"text", s.Text, o.Text}, {"explain", s.Explain, o.Explain}}
	if o.Note != nil {
		pairs = append(pairs, [3]string{"note", s.Note, *o.Note})
	}
	if s.Predict != nil {
		pairs = append(pairs, [3]string{"question", s.Predict.Question, *o.Question})
		for i, c := range s.Predict.Choices {
			pairs = append(pairs, [3]string{fmt.Sprintf("choice %d", i+1), c, o.Choices[i]})
		}
	}
	for _, p := range pairs {
		if err := sameParts(p[0], p[1], p[2]); err != nil {
			return err
		}
	}
	return nil
}

// sameParts checks that a translation is not empty where English is not and
// keeps English's `code` spans and {placeholders}, as sets.
func sameParts(field, english, text string) error {
	if strings.TrimSpace(text) == "" && strings.TrimSpace(english) != "" {
		return fmt.Errorf("%s: empty", field)
	}
	if a, b := codeSpans(english), codeSpans(text); !sameSet(a, b) {
		return fmt.Errorf("%s: code spans %q, English has %q", field, b, a)
	}
	if a, b := placeholders(english), placeholders(text); !sameSet(a, b) {
		return fmt.Errorf("%s: placeholders %q, English has %q", field, b, a)
	}
	return nil
}

// codeSpans are the `code` spans of a text.
func codeSpans(s string) []string {
	parts := strings.Split(s, "`")
	var out []string
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// placeholders are the {names} of a text outside its code spans.
func placeholders(s string) []string {
	parts := strings.Split(s, "`")
	var out []string
	for i := 0; i < len(parts); i += 2 {
		p := parts[i]
		for {
			a := strings.IndexByte(p, '{')
			if a < 0 {
				break
			}
			b := strings.IndexByte(p[a:], '}')
			if b < 0 {
				out = append(out, p[a:])
				break
			}
			out = append(out, p[a+1:a+b])
			p = p[a+b+1:]
		}
	}
	return out
}

// sameSet reports whether a and b hold the same strings, as many times each.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[string]int{}
	for _, s := range a {
		n[s]++
	}
	for _, s := range b {
		n[s]--
		if n[s] < 0 {
			return false
		}
	}
	return true
}

// MenuIn is Menu with each line's title and one-line description from a
// locale's overlay (read without decoding the rest of it); an empty
// overlay leaves the English menu.
func MenuIn(menu, overlay []byte) []byte {
	if len(overlay) == 0 {
		return menu
	}
	var entries []Entry
	if json.Unmarshal(menu, &entries) != nil {
		return menu
	}
	for i := range entries {
		o := gjson.GetBytes(overlay, gjson.Escape(entries[i].ID))
		if t := o.Get("title"); t.Type == gjson.String {
			entries[i].Title = t.Str
		}
		if l := o.Get("line"); l.Type == gjson.String {
			entries[i].Line = l.Str
		}
	}
	return answer(entries)
}
