//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/wasm/jshttp"
)

// panicPath lets the browser tests prove that a panic inside a request
// becomes a 500 answer and leaves the engine running.
const panicPath = "/_tableplay/panic"

// handleRequest is the Table API as the loader calls it:
// handleRequest(method, url, headers, body) with the absolute URL, the
// headers as [name, value] pairs (a browser joins repeated values with
// commas) and the body as a Uint8Array; it returns {status, statusText,
// headers, body} with the headers as pairs and the body as a Uint8Array.
// The engine answers synchronously: nothing in a request waits for the page.
func handleRequest(api rest.Server) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(api, args)
	})
}

// answer serves one call. A panic outside the handler's own recovery
// becomes a 500 InternalError answer instead of a dead engine.
func answer(api rest.Server, args []js.Value) (out js.Value) {
	defer func() {
		if p := recover(); p != nil {
			out = jshttp.ToJS(jshttp.Failure("bridge", time.Now()))
		}
	}()
	arg := func(i int) js.Value {
		if i < len(args) {
			return args[i]
		}
		return js.Undefined()
	}
	r, err := jshttp.Request(arg(0).String(), arg(1).String(), arg(2), arg(3))
	if err != nil {
		return jshttp.ToJS(jshttp.Plain(err.Error()))
	}
	if r.URL.Path == panicPath {
		panic("forced by " + panicPath)
	}
	return jshttp.ToJS(jshttp.Serve(api, r))
}
