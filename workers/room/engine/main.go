//go:build js && wasm

// Command engine is the Table API of one hosted account (a "room"), built
// for js/wasm and run by the room's Durable Object (workers/room/room.js),
// one Go instance per object. It answers with core/rest's Handler, as
// tableplay serve does, with the native server's authorization (every
// request signed with the room's key or a SAS from it), and hands each
// committed change record to the object, which keeps it in its SQLite
// storage before the answer leaves (journal.go).
//
// The object names the binding it gives this instance in the environment
// variable TABLEPLAY_BINDING (several objects may share one isolate, each
// with its own instance); the instance registers its functions there and
// calls ready(). See room.js for the calls both ways.
package main

import (
	"os"
	"syscall/js"
)

func main() {
	binding := js.Global().Get(os.Getenv("TABLEPLAY_BINDING"))
	e := &engine{binding: binding}
	fn := func(name string, f func(args []js.Value) any) {
		binding.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) }))
	}
	fn("open", e.open)
	fn("handle", e.handle)
	fn("head", e.head)
	fn("finish", e.finish)
	fn("compact", e.compact)
	fn("usage", e.usage)
	fn("fail", e.fail)
	binding.Call("ready")
	select {}
}
