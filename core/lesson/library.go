package lesson

import (
	"encoding/json"
	"strings"
)

// Library is the lesson view's side of the engine: the lessons, and a
// session on the page's account. Its methods answer JSON, like core/play's.
type Library struct {
	// Lessons are the lessons in menu order.
	Lessons []*Lesson
	// Session runs the steps in the page's account.
	Session *Session
}

// Entry is one line of the lessons menu.
type Entry struct {
	// ID is the lesson's id.
	ID string `json:"id"`
	// Title is the lesson's title.
	Title string `json:"title"`
	// Line is the lesson's one-line description.
	Line string `json:"line"`
	// Steps is the number of steps.
	Steps int `json:"steps"`
	// Clients names the two clients of a side-by-side lesson.
	Clients []string `json:"clients,omitempty"`
}

// View is a lesson as the page shows it: everything but the start account
// and the generators, which only the engine reads.
type View struct {
	// ID is the lesson's id.
	ID string `json:"id"`
	// Title is the lesson's title.
	Title string `json:"title"`
	// Line is the lesson's one-line description.
	Line string `json:"line"`
	// Summary is the lesson's opening paragraph.
	Summary string `json:"summary"`
	// Section is the part of the data-model page taught.
	Section Section `json:"section"`
	// Clients names the two clients of a side-by-side lesson.
	Clients []string `json:"clients,omitempty"`
	// Steps are the steps with their expectations, as the file has them.
	Steps []Step `json:"steps"`
}

func (b *Library) find(id string) *Lesson {
	for _, l := range b.Lessons {
		if strings.EqualFold(l.ID, id) {
			return l
		}
	}
	return nil
}

func answer(v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		out, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return out
}

// List answers the lessons menu.
func (b *Library) List() []byte {
	out := make([]Entry, len(b.Lessons))
	for i, l := range b.Lessons {
		out[i] = Entry{ID: l.ID, Title: l.Title, Line: l.Line, Steps: len(l.Steps), Clients: l.Clients}
	}
	return answer(out)
}

// Get answers one lesson's view, or {"error"} for an unknown id.
func (b *Library) Get(id string) []byte {
	l := b.find(id)
	if l == nil {
		return answer(map[string]string{"error": "no lesson " + id})
	}
	return answer(View{ID: l.ID, Title: l.Title, Line: l.Line, Summary: l.Summary, Section: l.Section, Clients: l.Clients, Steps: l.Steps})
}

// RunStep brings the account to the state before step n (0-based) of a
// lesson — its start account, then the steps before n — runs step n and
// answers its Result.
func (b *Library) RunStep(id string, n int) []byte {
	l := b.find(id)
	if l == nil {
		return answer(Result{Lesson: id, Step: n, Error: "no lesson " + id})
	}
	if n < 0 || n >= len(l.Steps) {
		return answer(Result{Lesson: id, Step: n, Error: "no such step"})
	}
	if err := b.Session.Prepare(l, n); err != nil {
		return answer(Result{Lesson: id, Step: n, Error: err.Error()})
	}
	return answer(b.Session.Run(n))
}

// Reset brings the account to the state before step n (n may be the number
// of steps: the lesson's end) and answers {"held": {client: ETag}} or
// {"error"}.
func (b *Library) Reset(id string, n int) []byte {
	l := b.find(id)
	if l == nil {
		return answer(map[string]string{"error": "no lesson " + id})
	}
	if err := b.Session.Prepare(l, n); err != nil {
		return answer(map[string]string{"error": err.Error()})
	}
	return answer(map[string]any{"held": copyMap(b.Session.held)})
}
