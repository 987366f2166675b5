//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/tableplay/tableplay/wasm/pageapi"
)

// register puts the page's functions, the rows of pageapi.Funcs, on the
// binding under their keys, with "api" (the rows as web/api.js reads them)
// and "writes" (whether a call would change its account, asked before the
// page's kept account runs one through its keeper). Each function takes
// strings and numbers and answers a string (JSON where structured).
func register(binding js.Value, env *pageapi.Env) {
	for i := range pageapi.Funcs {
		f := &pageapi.Funcs[i]
		binding.Set(f.Key(), js.FuncOf(func(_ js.Value, args []js.Value) any { return env.Invoke(f, values(args)) }))
	}
	describe := pageapi.Describe()
	binding.Set("api", js.FuncOf(func(js.Value, []js.Value) any { return describe }))
	byKey := map[string]*pageapi.Func{}
	for i := range pageapi.Funcs {
		byKey[pageapi.Funcs[i].Key()] = &pageapi.Funcs[i]
	}
	binding.Set("writes", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || byKey[args[0].String()] == nil {
			return false
		}
		return env.Writes(byKey[args[0].String()], values(args[1:]))
	}))
}

// values are a call's arguments as pageapi reads them: strings and
// numbers; anything else is missing.
func values(args []js.Value) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a.Type() {
		case js.TypeString:
			out[i] = a.String()
		case js.TypeNumber:
			out[i] = a.Float()
		}
	}
	return out
}
