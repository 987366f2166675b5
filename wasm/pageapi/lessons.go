package pageapi

import (
	"encoding/json"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/lessons"
)

// lessonState is the embedded lessons and each account's session of them.
// The menu is read from the files without decoding them; the lessons are
// decoded and checked on the first call that needs one (decoding them all
// at start cost the page's first render a tenth of a second). A lesson file
// that fails to load makes those calls answer the error.
type lessonState struct {
	by      *lesson.Accounts
	menu    lesson.Library
	list    []byte
	loaded  bool
	err     error
	builtin int // how many lessons are the engine's own; -1 until a lesson is added
	english []*lesson.Lesson
	gen     int // the localeState.gen the lessons are in
}

// load decodes the lessons once, and puts them in the reader's language
// whenever it changed: the engine's own from the locale's overlay, a
// lesson added from a link as it was written.
func (l *lessonState) load(st localeState) error {
	if !l.loaded {
		l.loaded = true
		l.builtin = -1
		l.english, l.err = lesson.Load(lessons.Files)
		l.by.Lessons = l.english
		l.menu.Lessons = l.by.Lessons
	}
	if l.err != nil || l.gen == st.gen {
		return l.err
	}
	own := l.english
	if st.overlay != nil {
		var err error
		if own, err = lesson.Localize(st.loc, l.english, st.overlay); err != nil {
			return err
		}
	}
	all := append(append([]*lesson.Lesson{}, own...), l.by.Lessons[len(l.english):]...)
	l.by.Lessons, l.menu.Lessons, l.gen = all, all, st.gen
	return nil
}

// loaded runs f once the lessons are loaded, or answers why they are not.
func loaded(c *Call, f func(l *lessonState) string) string {
	l := &c.Env.lessons
	if err := l.load(c.Env.locale); err != nil {
		return errJSON(err.Error())
	}
	return f(l)
}

func lessonMenu(c *Call) string {
	l := &c.Env.lessons
	if l.list == nil {
		list, err := lesson.Menu(lessons.Files)
		if err != nil {
			return errJSON(err.Error())
		}
		l.list = list
	}
	return string(lesson.MenuIn(l.list, c.Env.locale.overlay))
}

func lessonOne(c *Call) string {
	return loaded(c, func(l *lessonState) string { return string(l.menu.Get(c.Str(0))) })
}

// runLessonStep and resetLesson run in the account the call is bound to
// (the page's own, or an embed's).
func runLessonStep(c *Call) string {
	return loaded(c, func(l *lessonState) string { return string(l.by.Library(c.Account.Name).RunStep(c.Str(0), c.Int(1))) })
}

func resetLesson(c *Call) string {
	return loaded(c, func(l *lessonState) string { return string(l.by.Library(c.Account.Name).Reset(c.Str(0), c.Int(1))) })
}

// completeLesson fills a lesson recorded in the page with the engine's
// answers and reads it back with the loader.
func completeLesson(c *Call) string {
	return loaded(c, func(*lessonState) string {
		out, err := lesson.Complete(c.Bytes(0), c.Env.Clock)
		if err != nil {
			return errJSON(err.Error())
		}
		return answer(map[string]json.RawMessage{"lesson": out})
	})
}

// addLesson serves a lesson file (from a lesson link) beside the engine's
// own.
func addLesson(c *Call) string {
	return loaded(c, func(l *lessonState) string {
		if l.builtin < 0 {
			l.builtin = len(l.by.Lessons)
		}
		x, err := lesson.Parse(c.Bytes(0))
		if err == nil {
			err = l.by.AddCustom(x, l.builtin)
		}
		if err != nil {
			return errJSON(err.Error())
		}
		l.menu.Lessons = l.by.Lessons
		return answer(map[string]string{"id": x.ID})
	})
}
