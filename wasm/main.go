//go:build js && wasm

// Command wasm is the engine in the browser: the Table API (handleRequest)
// and the playground's functions (core/play), registered on the JS binding
// of one Go instance for the page's life. The
// instance hosts several independent accounts (the page's own and one per
// embedded playground), each reached by the account name in the path. The
// page reaches all of it through web/engine.js, our loader, which builds
// window.tableplay from the rows of wasm/pageapi (web/api.js).
package main

import (
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/wasm/pageapi"
)

func main() {
	// The loader hands the binding over through the glue's private view of
	// the global object (the page itself gains no name).
	binding := js.Global().Get("tableplayBinding")
	origin := js.Global().Get("location").Get("origin").String()
	// Each account's lesson session hears of every change to its account,
	// so a step after the person's own requests replays the lesson from its
	// start account.
	var env *pageapi.Env
	accounts := play.NewAccounts(play.AccountsOptions{
		Clock: time.Now,
		// Requests and previews use the page's own origin, as the native
		// server uses the host a request came to.
		Base: func(name string) string { return origin + "/" + name },
		OnChange: func(name string) {
			env.Changed(name)
			notifyChange(binding, name)
		},
		// A page holds no secret; a signature that is present is still verified.
		AllowUnsigned: true,
		// Requests come from this page only, never from another site.
		TrustUnsigned: true,
	})
	binding.Set("handleRequest", handleRequest(accounts.Router()))
	env = pageapi.New(accounts, time.Now)
	register(binding, env)
	binding.Call("ready")
	select {}
}

// notifyChange tells the loader which account changed, for persistence.
func notifyChange(binding js.Value, account string) {
	if f := binding.Get("notifyChange"); f.Type() == js.TypeFunction {
		f.Invoke(account)
	}
}
