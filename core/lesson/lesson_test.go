package lesson

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

// -lesson.show prints every step's measured outcome (a help for authors).
var show = flag.Bool("lesson.show", false, "print each step's outcome")

// newSession is a session on a fresh account whose clock moves 1 ms a read,
// so every write gets a new ETag.
func newSession() *Session {
	return NewSession(testClock())
}

func loadAll(t *testing.T) []*Lesson {
	t.Helper()
	ls, err := Load(os.DirFS("../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// runLesson runs every step of a lesson from its start account and returns
// one line per difference, naming the lesson and step.
func runLesson(t *testing.T, l *Lesson) []string {
	t.Helper()
	s := newSession()
	if err := s.Start(l); err != nil {
		return []string{err.Error()}
	}
	var fails []string
	for i := range l.Steps {
		r := s.Run(i)
		if *show {
			out, _ := json.Marshal(r.Outcome)
			t.Logf("%s step %d: %s", l.ID, i+1, out)
		}
		for _, d := range r.Diffs {
			fails = append(fails, l.ID+" step "+itoa(i+1)+" ("+l.Steps[i].Title+"): "+d)
		}
	}
	return fails
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestLessons is the check that keeps lessons true: every step of every
// lesson, run through the engine, does what the lesson says.
func TestLessons(t *testing.T) {
	ls := loadAll(t)
	if len(ls) < 14 {
		t.Errorf("%d lessons; the gallery promises at least 14", len(ls))
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			for _, f := range runLesson(t, l) {
				t.Error(f)
			}
		})
	}
}
