package lesson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/tableplay/tableplay/core/profile"
)

// MaxFile bounds a lesson file's size.
const MaxFile = 1 << 20

// validID reports whether id is 1 to 63 of a-z, 0-9 and '-', not starting
// with '-'. (Written out rather than a regexp: regexp would add a third of a
// megabyte to the browser's engine.)
func validID(id string) bool {
	if id == "" || len(id) > 63 || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Parse reads one lesson document strictly: unknown fields, trailing data and
// a missing part are errors.
func Parse(doc []byte) (*Lesson, error) {
	l, err := decode(doc)
	if err != nil {
		return nil, err
	}
	if err := l.validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// decode reads one lesson document, bounded, without checking its parts:
// unknown fields and trailing data are errors.
func decode(doc []byte) (*Lesson, error) {
	if len(doc) > MaxFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxFile)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	var l Lesson
	if err := dec.Decode(&l); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the lesson object")
	}
	return &l, nil
}

// Load reads every *.json file of a folder as a lesson, in menu order; each
// file's name must be its lesson's id, and no two lessons share a place.
func Load(fsys fs.FS) ([]*Lesson, error) {
	names := lessonFiles(fsys)
	sort.Strings(names)
	var out []*Lesson
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		l, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if want := strings.TrimSuffix(path.Base(name), ".json"); l.ID != want {
			return nil, fmt.Errorf("%s: id %q differs from the file name", name, l.ID)
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	for i := 1; i < len(out); i++ {
		if out[i].Order == out[i-1].Order {
			return nil, fmt.Errorf("%s and %s share order %d", out[i-1].ID, out[i].ID, out[i].Order)
		}
	}
	return out, nil
}

// validate checks what the decoder cannot: required parts, step counts, one
// action per step, an expectation that fits the action, a well-formed
// prediction and generators.
func (l *Lesson) validate() error {
	switch {
	case !validID(l.ID):
		return fmt.Errorf("id %q: use lower-case letters, digits and '-'", l.ID)
	case l.Order < 1:
		return errors.New("order (the place in the menu, from 1) is required")
	case l.Title == "" || l.Line == "" || l.Summary == "":
		return errors.New("title, line and summary are required")
	case l.Section.Title == "" || !strings.HasPrefix(l.Section.URL, "https://"):
		return errors.New("section needs a title and an https URL")
	case len(l.Start) == 0:
		return errors.New("start (a snapshot document) is required")
	case !validLang(l.Lang):
		return fmt.Errorf("lang %q: use en, pl, ja or fr", l.Lang)
	}
	if err := l.checkStepCount(); err != nil {
		return err
	}
	if err := l.checkGenerate(); err != nil {
		return err
	}
	for i := range l.Steps {
		if err := l.Steps[i].validate(l.Clients); err != nil {
			return fmt.Errorf("step %d: %v", i+1, err)
		}
	}
	return nil
}

// validLang says whether tag names one of the languages lessons are
// written in (the field is optional: "" is English).
func validLang(tag string) bool {
	switch tag {
	case "", "en", "pl", "ja", "fr":
		return true
	}
	return false
}

// checkStepCount bounds a lesson's steps: 3 to 8.
func (l *Lesson) checkStepCount() error {
	if len(l.Steps) < 3 || len(l.Steps) > 8 {
		return fmt.Errorf("%d steps: a lesson has 3 to 8", len(l.Steps))
	}
	return nil
}

// checkGenerate bounds the generated datasets: what building the start
// account may cost.
func (l *Lesson) checkGenerate() error {
	total, values := 0, 0
	for i, d := range l.Generate {
		total += d.Count
		values += d.Count * (2 + len(d.Properties))
		if d.Table == "" || d.Count < 1 || total > MaxGenerated || values > MaxGeneratedValues {
			return fmt.Errorf("generate[%d]: a table, and 1 to %d entities and %d values in all", i, MaxGenerated, MaxGeneratedValues)
		}
		for _, g := range append([]Gen{d.PartitionKey, d.RowKey}, gens(d.Properties)...) {
			if err := g.check(); err != nil {
				return fmt.Errorf("generate[%d]: %v", i, err)
			}
		}
	}
	return nil
}

func gens(ps []GenProperty) []Gen {
	out := make([]Gen, len(ps))
	for i, p := range ps {
		if p.Name == "" {
			p.Format = "" // reported by check as a missing part
		}
		out[i] = p.Gen
	}
	return out
}

func (s *Step) validate(clients []string) error {
	if s.Title == "" || s.Text == "" || s.Explain == "" {
		return errors.New("title, text and explain are required")
	}
	if err := s.checkPlaceholders(); err != nil {
		return err
	}
	actions := 0
	for _, set := range []bool{s.Operation != nil, s.Draft != nil, s.TableName != nil, s.Filter != nil} {
		if set {
			actions++
		}
	}
	if actions != 1 {
		return fmt.Errorf("%d actions: a step has exactly one of operation, draft, tableName, filter", actions)
	}
	e := s.Expect
	if s.Operation == nil && (s.Client != "" || s.IfMatchFrom != "" || s.Continue || s.SAS != nil || s.Body != nil || s.Profile != "") {
		return errors.New("client, ifMatchFrom, continue, sas, body and profile belong to operations")
	}
	if _, ok := profile.ByName(s.Profile); s.Profile != "" && !ok {
		return fmt.Errorf("no profile %q; the profiles are %s", s.Profile, strings.Join(profile.Names(), ", "))
	}
	for _, c := range []string{s.Client, s.IfMatchFrom} {
		if c != "" && !contains(clients, c) {
			return fmt.Errorf("client %q is not one of the lesson's clients", c)
		}
	}
	if s.Operation != nil {
		if e.Status == 0 {
			return errors.New("an operation's expectation needs a status")
		}
		if e.Valid != nil || e.Rules != nil || e.Size != nil || e.Count != nil || e.Canonical != "" {
			return errors.New("valid, rules, size, count and canonical belong to drafts, table names and filters")
		}
		if s.Continue && s.Operation.Kind != "query" {
			return errors.New("continue belongs to queries")
		}
		if s.Body != nil && (s.Operation.Kind == "query" || s.Operation.Kind == "batch" || !strings.Contains("insert replace merge insertOrReplace insertOrMerge", s.Operation.Kind)) {
			return errors.New("body belongs to entity writes")
		}
	} else {
		if e.Valid == nil {
			return errors.New("the expectation needs valid (true or false)")
		}
		if e.RowKeys != nil || e.Scanned != nil || e.Returned != nil || e.More != nil || e.FailedIndex != nil ||
			e.Annotated != nil || e.Contains != nil || e.Entity != nil {
			return errors.New("rowKeys, scanned, returned, more, failedIndex, annotated, contains and entity belong to operations")
		}
		if s.Filter == nil && e.Canonical != "" || s.Draft == nil && (e.Size != nil || e.Count != nil) {
			return errors.New("canonical belongs to filters; size and count to drafts")
		}
	}
	if p := s.Predict; p != nil {
		if p.Question == "" || len(p.Choices) < 2 || len(p.Choices) > 4 || p.Answer < 0 || p.Answer >= len(p.Choices) {
			return errors.New("a prediction has a question, 2 to 4 choices and the index of the right one")
		}
		if err := p.agrees(e.Status); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// statuses lists the HTTP statuses (200 to 599) written in text as numbers of
// their own: three digits with no letter, digit or '_' either side.
func statuses(text string) []string {
	word := func(i int) bool {
		if i < 0 || i >= len(text) {
			return false
		}
		c := text[i]
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	digit := func(i int) bool { return text[i] >= '0' && text[i] <= '9' }
	var found []string
	for i := 0; i+3 <= len(text); i++ {
		if text[i] >= '2' && text[i] <= '5' && digit(i+1) && digit(i+2) && !word(i-1) && !word(i+3) {
			found = append(found, text[i:i+3])
			i += 2
		}
	}
	return found
}

// agrees ties a prediction to the expected status: the right choice may name
// only that status, and no wrong choice names it.
func (p *Prediction) agrees(status int) error {
	if status == 0 {
		return nil
	}
	want := fmt.Sprint(status)
	for i, c := range p.Choices {
		named := statuses(c)
		if i == p.Answer {
			for _, n := range named {
				if n != want {
					return fmt.Errorf("the right choice names %s but the step expects %s", n, want)
				}
			}
		} else if contains(named, want) {
			return fmt.Errorf("choice %d names the expected status %s but is not the answer", i+1, want)
		}
	}
	return nil
}
