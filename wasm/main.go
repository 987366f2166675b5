//go:build js && wasm

// Command wasm is the engine in the browser: the Table API served through
// syumai/workers from one Go instance for the page's life, and the
// playground's functions (core/play) registered on the JS binding. The page
// reaches both through web/engine.js, our loader.
package main

import (
	"syscall/js"
	"time"

	"github.com/syumai/workers"

	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

func main() {
	binding := js.Global().Get("context").Get("binding")
	clock := time.Now
	// The lesson session hears of every change, so a step after the person's
	// own requests replays the lesson from its start account.
	sess := &lesson.Session{}
	st := store.New(store.Options{Clock: clock, OnChange: func() {
		sess.Changed()
		notifyChange(binding)
	}})
	creds := rest.WellKnown()
	creds.AllowUnsigned = true // a page holds no secret; a signature that is present is still verified
	creds.TrustUnsigned = true // requests come from this page only, never from another site
	api := rest.New(rest.Options{Store: st, Credentials: creds, Clock: clock})
	workers.ServeNonBlock(bridge(api))
	papi := &play.API{Base: "", Clock: clock, Creds: rest.WellKnown(), Store: st}
	register(binding, st, papi)
	sess.API, sess.Handler, sess.Store = papi, api, st
	registerLessons(binding, sess)
	workers.Ready()
	select {}
}

// notifyChange tells the loader that the account changed, for persistence.
func notifyChange(binding js.Value) {
	if f := binding.Get("notifyChange"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}
