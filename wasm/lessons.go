//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/lessons"
)

// registerLessons puts the lesson functions on the binding: the menu, one
// lesson, running a step and resetting to a step. The lessons are embedded;
// a lesson file that fails to load makes every call answer the error.
func registerLessons(binding js.Value, s *lesson.Session) {
	all, err := lesson.Load(lessons.Files)
	lib := &lesson.Library{Lessons: all, Session: s}
	failed := func() (string, bool) {
		if err == nil {
			return "", false
		}
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b), true
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
			if msg, bad := failed(); bad {
				return msg
			}
			return f(args)
		}))
	}
	// Requests use the page's origin, as the other playground calls do.
	base := func() string {
		return js.Global().Get("location").Get("origin").String() + "/" + rest.WellKnownAccount
	}
	fn("lessons", func([]js.Value) string { return string(lib.List()) })
	fn("lesson", func(a []js.Value) string { return string(lib.Get(str(a, 0))) })
	fn("runLessonStep", func(a []js.Value) string {
		s.API.Base = base()
		return string(lib.RunStep(str(a, 0), num(a, 1)))
	})
	fn("resetLesson", func(a []js.Value) string {
		s.API.Base = base()
		return string(lib.Reset(str(a, 0), num(a, 1)))
	})
}
