package docscheck

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// Expect is an example's expectation (its expect attribute): what running
// its start state's action must produce. The fields of lesson.Expect keep
// their meaning; Kind names the action when the start state does not
// imply it, and Properties are checked on the first entity of the answer.
type Expect struct {
	lesson.Expect
	// Kind is the operation to run (insert, get, query, …); by default a
	// query when the example has a filter or shows the query view, else an
	// insert of the editor's entity.
	Kind string `json:"kind,omitempty"`
	// Properties are properties the first entity of the answer (the one
	// written or read, or the first of a query's page) holds, each with
	// this type and value; others may be there too.
	Properties []play.Row `json:"properties,omitempty"`
}

// Problem is one example that no longer holds.
type Problem struct {
	// File names the file as it was given.
	File string
	// Line is the element's line.
	Line int
	// Message says what no longer holds.
	Message string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message) }

// Checker checks the examples of files against the engine.
type Checker struct {
	// Lessons are the lessons a lesson= or example= attribute may name.
	Lessons []*lesson.Lesson
	// InLanguage gives the lessons in a locale other than English (the
	// locale's overlay on them); nil checks every lesson in English.
	InLanguage func(lang string, english []*lesson.Lesson) ([]*lesson.Lesson, error)
	localized  map[string][]*lesson.Lesson
	// Clock stamps the engine's writes.
	Clock func() time.Time
	// ReadFile reads a src= start state, named relative to the checked file
	// (a path with '/' separators); nil leaves src= examples unchecked.
	ReadFile func(name string) ([]byte, error)
	// Restored, if set, is called each time a start state is restored
	// (examples sharing a start state's bytes share one restore while none
	// of them writes).
	Restored func()

	starts startsCache
}

// emptyAccount is the start of an example that names no start state.
const emptyAccount = `{"format":"` + store.SnapshotFormat + `","version":1,"tables":[]}`

// Check scans one file's text and checks each example in it; file names it
// in the problems and resolves src= against its folder. The number of
// examples checked is returned with the problems.
func (c *Checker) Check(file string, text []byte) (int, []Problem) {
	examples, err := Scan(text)
	if err != nil {
		return 0, []Problem{{File: file, Line: 1, Message: err.Error()}}
	}
	var out []Problem
	page := pageLang(text)
	for _, ex := range examples {
		for _, msg := range c.example(file, ex, page) {
			out = append(out, Problem{File: file, Line: ex.Line, Message: msg})
		}
	}
	return len(examples), out
}

// inlineState is an example's start state, as web/embed.js reads it.
type inlineState struct {
	Account json.RawMessage `json:"account"`
	Table   string          `json:"table"`
	Entity  json.RawMessage `json:"entity"`
	Filter  string          `json:"filter"`
}

// readStartState reads a start state's text as web/embed.js's
// readStartState does: JSON; else the same with its character references
// decoded (a renderer that escaped a script's text); else URL-safe base64
// of the JSON. A JSON object with "format" is a bare account document; any
// other field than a start state's is refused, so a typo cannot pass.
func readStartState(text, from string) (inlineState, string) {
	raw := strings.TrimSpace(text)
	tries := []string{raw}
	if strings.Contains(raw, "&") && !strings.Contains(raw, "<") {
		if d := html.UnescapeString(raw); d != raw {
			tries = append(tries, d)
		}
	}
	if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(raw, "=")); err == nil && utf8.Valid(b) {
		tries = append(tries, strings.TrimSpace(string(b)))
	}
	var first error
	for _, t := range tries {
		var fields map[string]json.RawMessage
		if err := strictJSON([]byte(t), &fields, false); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		if fields == nil {
			return inlineState{}, "the start state in " + from + " is JSON but not an object"
		}
		if _, ok := fields["format"]; ok {
			return inlineState{Account: json.RawMessage(t)}, "" // a bare account document
		}
		var unknown []string
		for k := range fields {
			switch k {
			case "account", "table", "entity", "filter":
			default:
				unknown = append(unknown, strconv.Quote(k))
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return inlineState{}, "the start state in " + from + " has " + strings.Join(unknown, ", ") + ", which a start state does not take (it takes account, table, entity, filter)"
		}
		var in inlineState
		if err := strictJSON([]byte(t), &in, false); err != nil {
			return inlineState{}, "the start state in " + from + ": " + err.Error()
		}
		return in, ""
	}
	return inlineState{}, "the start state in " + from + " is not JSON: " + first.Error()
}

func (c *Checker) find(id string) *lesson.Lesson {
	for _, l := range c.Lessons {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// example checks one element: its start state loads, a lesson's steps
// still go as the lesson says, and its expectation holds.
func (c *Checker) example(file string, ex Example, page string) []string {
	lang, msg := c.language(ex, page)
	if msg != "" {
		return []string{msg}
	}
	in := inlineState{}
	if state, ok := ex.Attr("state"); ok {
		var msg string
		if in, msg = readStartState(state, "its state attribute"); msg != "" {
			return []string{msg}
		}
	} else if ex.HasInline {
		var msg string
		if in, msg = readStartState(ex.Inline, ex.InlineFrom); msg != "" {
			return []string{msg}
		}
	}
	var want *Expect
	if raw, ok := ex.Attr("expect"); ok {
		want = &Expect{}
		if err := strictJSON([]byte(raw), want, true); err != nil {
			return []string{"the expect attribute cannot be read: " + err.Error()}
		}
	}
	if id, ok := ex.Attr("lesson"); ok {
		if want != nil {
			return []string{"a lesson's steps carry their own expectations: remove expect"}
		}
		return c.lessonSteps(id, ex, lang)
	}
	start, msg := c.startAccount(file, ex, &in)
	if msg != "" {
		return []string{msg}
	}
	if start == nil { // the built-in sample: nothing to check against
		if want != nil {
			return []string{`expect needs an inline, src or lesson start state, not example="sample"`}
		}
		return nil
	}
	cached, err := c.starts.session(start, c.Clock, c.Restored)
	if err != nil {
		return []string{"the start state no longer loads: " + strings.TrimPrefix(err.Error(), "docs-example: ")}
	}
	s, doc := cached.session, cached.doc
	table := in.Table
	if table == "" {
		table = cached.table
	} else if _, err := s.Store.Count(table); err != nil {
		return []string{"the start state has no table " + strconv.Quote(table)}
	}
	var draft *play.Draft
	if len(in.Entity) > 0 && string(in.Entity) != "null" {
		if draft = asDraft(s.API, in.Entity); draft == nil {
			return []string{"the editor's entity cannot be read as an entity body or a draft"}
		}
	}
	if want == nil {
		return nil
	}
	operation, msg := action(ex, *want, table, in.Filter, draft)
	if msg != "" {
		return []string{msg}
	}
	doc.Steps = []lesson.Step{{Operation: &operation, Expect: want.Expect}}
	r := s.Run(0)
	diffs := r.Diffs
	if r.Error == "" {
		diffs = append(diffs, properties(s.Store, operation.Table, want.Properties, r.Response)...)
	}
	for i, d := range diffs {
		diffs[i] = operation.Kind + ": " + d
	}
	return diffs
}

// startAccount returns the account document the example starts from, as
// the element chooses it; nil for the built-in sample. A src= file's
// table, entity and filter fill those in that the inline state lacks.
func (c *Checker) startAccount(file string, ex Example, in *inlineState) ([]byte, string) {
	if src, ok := ex.Attr("src"); ok && in.Account == nil {
		if c.ReadFile == nil || strings.Contains(src, ":") || strings.HasPrefix(src, "//") {
			return nil, "" // a remote account: not read here
		}
		name := src
		if !strings.HasPrefix(src, "/") {
			if i := strings.LastIndex(file, "/"); i >= 0 {
				name = file[:i+1] + src
			}
		}
		b, err := c.ReadFile(name)
		if err != nil {
			return nil, "the src start state cannot be read: " + err.Error()
		}
		// src= holds the same start state as the inline forms; what is
		// written inline wins field by field.
		from, msg := c.starts.read(b, "the file at "+src)
		if msg != "" {
			return nil, msg
		}
		if in.Table == "" {
			in.Table = from.Table
		}
		if in.Filter == "" {
			in.Filter = from.Filter
		}
		if in.Entity == nil {
			in.Entity = from.Entity
		}
		if from.Account == nil {
			return []byte(emptyAccount), ""
		}
		return from.Account, ""
	}
	if in.Account != nil {
		return in.Account, ""
	}
	if name, ok := ex.Attr("example"); ok {
		if name == "sample" {
			return nil, ""
		}
		l := c.find(name)
		if l == nil {
			return nil, fmt.Sprintf("there is no example named %q (the embed would show the sample with a note)", name)
		}
		doc, err := l.Account()
		if err != nil {
			return nil, "the example's start account: " + err.Error()
		}
		return doc, ""
	}
	return []byte(emptyAccount), ""
}

// lessonSteps runs the lesson's steps the element shows (all of them
// without step or steps), each of which must still go as the lesson says.
func (c *Checker) lessonSteps(id string, ex Example, lang string) []string {
	lessons, err := c.lessonsIn(lang)
	if err != nil {
		return []string{err.Error()}
	}
	var l *lesson.Lesson
	for _, x := range lessons {
		if x.ID == id {
			l = x
		}
	}
	if l == nil {
		return []string{fmt.Sprintf("there is no lesson %q", id)}
	}
	step, _ := ex.Attr("step")
	steps, _ := ex.Attr("steps")
	first, last, err := ParseSteps(step, steps, len(l.Steps))
	if err != nil {
		return []string{err.Error()}
	}
	s := lesson.NewSession(c.Clock)
	if err := s.Prepare(l, first-1); err != nil {
		return []string{"the lesson's steps before the first shown no longer hold: " + err.Error()}
	}
	var out []string
	for i := first - 1; i < last; i++ {
		r := s.Run(i)
		for _, d := range r.Diffs {
			out = append(out, fmt.Sprintf("lesson %s step %d (%s): %s", l.ID, i+1, l.Steps[i].Title, d))
		}
	}
	return out
}

// ParseSteps reads an element's step ("3") or steps ("2-4") attribute for a
// lesson of n steps and returns the first and last step shown, 1-based; with
// neither, every step.
func ParseSteps(step, steps string, n int) (first, last int, err error) {
	switch {
	case step != "" && steps != "":
		return 0, 0, errors.New("give step or steps, not both")
	case step != "":
		k, err := strconv.Atoi(strings.TrimSpace(step))
		if err != nil || k < 1 || k > n {
			return 0, 0, fmt.Errorf("step=%q: the lesson has steps 1 to %d", step, n)
		}
		return k, k, nil
	case steps != "":
		a, b, ok := strings.Cut(steps, "-")
		i, err1 := strconv.Atoi(strings.TrimSpace(a))
		j, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || i < 1 || j < i || j > n {
			return 0, 0, fmt.Errorf("steps=%q: write a range such as 2-4 within steps 1 to %d", steps, n)
		}
		return i, j, nil
	}
	return 1, n, nil
}

// action is the operation an expectation is about: the expectation's kind,
// or what the example's view implies.
func action(ex Example, want Expect, table, filter string, draft *play.Draft) (play.Operation, string) {
	view, _ := ex.Attr("view")
	kind := want.Kind
	if kind == "" {
		switch {
		case filter != "" || strings.Contains(view, "query"):
			kind = "query"
		case draft != nil:
			kind = "insert"
		default:
			return play.Operation{}, `expect names no action: add "kind" (such as "query" or "insert")`
		}
	}
	o := play.Operation{Kind: kind, Table: table}
	if level, ok := ex.Attr("level"); ok && level != "minimalmetadata" {
		o.Level = level
	}
	switch kind {
	case "query", "listTables":
		if filter != "" {
			o.Filter = &filter
		}
	case "createTable", "deleteTable", "getTable":
	default:
		if draft == nil {
			return play.Operation{}, kind + " needs the editor's entity (entity in the inline start state)"
		}
		o.Entity = draft
	}
	return o, ""
}

// asDraft reads the editor's entity: a draft, or an entity as an OData body.
func asDraft(api *play.API, raw json.RawMessage) *play.Draft {
	if gjson.GetBytes(raw, "properties").IsArray() {
		var d play.Draft
		if json.Unmarshal(raw, &d) != nil {
			return nil
		}
		return &d
	}
	report := api.ParseBody(string(raw))
	d := gjson.GetBytes(report, "draft")
	if !d.Exists() {
		return nil
	}
	var out play.Draft
	if json.Unmarshal([]byte(d.Raw), &out) != nil {
		return nil
	}
	return &out
}

// properties compares the wanted properties with the stored entity the
// answer names first.
func properties(st *store.Store, table string, want []play.Row, reply *rest.Reply) []string {
	if len(want) == 0 {
		return nil
	}
	if reply == nil {
		return []string{"properties: the step sent nothing"}
	}
	e := gjson.Parse(reply.Body)
	if v := e.Get("value"); v.IsArray() {
		e = v.Get("0")
	}
	pk, rk := e.Get("PartitionKey"), e.Get("RowKey")
	if !pk.Exists() || !rk.Exists() {
		return []string{"properties: the answer names no entity"}
	}
	stored, err := st.Get(table, pk.String(), rk.String())
	if err != nil {
		return []string{"properties: the entity the answer names is not stored"}
	}
	var out []string
	for _, w := range want {
		got := "(absent)"
		for _, p := range stored.Properties {
			if p.Name == w.Name {
				got = p.Value.Type().String() + " " + p.Value.Text()
			}
		}
		typ := w.Type
		if typ == "" {
			typ = "Edm.String"
		} else if !strings.HasPrefix(typ, "Edm.") {
			typ = "Edm." + typ
		}
		if exp := typ + " " + w.Text; exp != got {
			out = append(out, fmt.Sprintf("property %s: expected %s, got %s", w.Name, exp, got))
		}
	}
	return out
}

// strictJSON decodes one JSON value; strict refuses unknown fields (an
// expectation's typo must not pass silently).
func strictJSON(b []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}
