//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/lessons"
)

// registerLessons puts the lesson functions on the binding: the menu and one
// lesson (the same for every account), and running a step and resetting to
// a step, which take the account's name first (the page's own, or an
// embed's). The lessons are embedded. The menu is read from the files
// without decoding them; the lessons are decoded and checked on the first
// call that needs one (decoding them all at start cost the page's first
// render a tenth of a second). A lesson file that fails to load makes those
// calls answer the error. It returns the per-account sessions, which must
// hear of every change to an account.
func registerLessons(binding js.Value, accounts *play.Accounts) *lesson.Accounts {
	la := &lesson.Accounts{Engine: accounts}
	menu := &lesson.Library{}
	var list []byte
	var err error
	loaded := false
	load := func() error {
		if !loaded {
			loaded = true
			la.Lessons, err = lesson.Load(lessons.Files)
			menu.Lessons = la.Lessons
		}
		return err
	}
	answer := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	str := func(args []js.Value, i int) string {
		if i < len(args) && args[i].Type() == js.TypeString {
			return args[i].String()
		}
		return ""
	}
	num := func(args []js.Value, i int) int {
		if i < len(args) && args[i].Type() == js.TypeNumber {
			return args[i].Int()
		}
		return -1
	}
	fn := func(name string, f func(args []js.Value) string) {
		binding.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			if err := load(); err != nil {
				return answer(map[string]string{"error": err.Error()})
			}
			return f(args)
		}))
	}
	// account runs f with the lessons bound to the account named first.
	account := func(name string, f func(lib *lesson.Library, args []js.Value) string) {
		fn(name, func(a []js.Value) string {
			lib := la.Library(str(a, 0))
			if lib == nil {
				return answer(map[string]string{"error": play.ErrNoAccount.Error()})
			}
			return f(lib, a[1:])
		})
	}
	binding.Set("lessons", js.FuncOf(func(js.Value, []js.Value) any {
		if list == nil {
			var merr error
			if list, merr = lesson.Menu(lessons.Files); merr != nil {
				list = nil
				return answer(map[string]string{"error": merr.Error()})
			}
		}
		return string(list)
	}))
	fn("lesson", func(a []js.Value) string { return string(menu.Get(str(a, 0))) })
	// completeLesson fills a lesson recorded in the page with the engine's
	// answers and reads it back with the loader; addLesson serves a lesson
	// file (from a lesson link) beside the engine's own.
	fn("completeLesson", func(a []js.Value) string {
		out, err := lesson.Complete([]byte(str(a, 0)), time.Now)
		if err != nil {
			return answer(map[string]string{"error": err.Error()})
		}
		return answer(map[string]json.RawMessage{"lesson": out})
	})
	builtin := -1
	fn("addLesson", func(a []js.Value) string {
		if builtin < 0 {
			builtin = len(la.Lessons)
		}
		l, err := lesson.Parse([]byte(str(a, 0)))
		if err == nil {
			err = la.AddCustom(l, builtin)
		}
		if err != nil {
			return answer(map[string]string{"error": err.Error()})
		}
		menu.Lessons = la.Lessons
		return answer(map[string]string{"id": l.ID})
	})
	account("runLessonStep", func(lib *lesson.Library, a []js.Value) string { return string(lib.RunStep(str(a, 0), num(a, 1))) })
	account("resetLesson", func(lib *lesson.Library, a []js.Value) string { return string(lib.Reset(str(a, 0), num(a, 1))) })
	return la
}
