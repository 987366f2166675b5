//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// register puts the playground's functions on the binding. Each takes and
// returns strings (JSON where structured); the loader parses them.
func register(binding js.Value, st *store.Store, api *play.API) {
	// Requests and previews use the page's own origin, as the native server
	// uses the host a request came to.
	base := func() string {
		return js.Global().Get("location").Get("origin").String() + "/" + rest.WellKnownAccount
	}
	fn := func(name string, f func(args []js.Value) any) {
		binding.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) }))
	}
	arg := func(args []js.Value, i int) string {
		if i < len(args) && args[i].Type() == js.TypeString {
			return args[i].String()
		}
		return ""
	}
	fn("validateTableName", func(a []js.Value) any { return string(api.ValidateTableName(arg(a, 0))) })
	fn("validateEntity", func(a []js.Value) any { return string(api.ValidateEntity([]byte(arg(a, 0)))) })
	fn("previewEntity", func(a []js.Value) any {
		api.Base = base()
		return string(api.PreviewEntity([]byte(arg(a, 0)), arg(a, 1), arg(a, 2)))
	})
	fn("explainFilter", func(a []js.Value) any { return string(api.ExplainFilter(arg(a, 0))) })
	fn("requestFor", func(a []js.Value) any {
		api.Base = base()
		return string(api.RequestFor([]byte(arg(a, 0))))
	})
	fn("codeFor", func(a []js.Value) any {
		// Code names the page's server only when it is a local one (tableplay
		// serve on another port); otherwise the emulator's well-known address.
		endpoint := ""
		if b := base(); strings.HasPrefix(b, "http://127.0.0.1:") || strings.HasPrefix(b, "http://localhost:") {
			endpoint = b
		}
		return string(api.CodeFor([]byte(arg(a, 0)), arg(a, 1), endpoint))
	})
	fn("exportCSV", func(a []js.Value) any { return string(api.ExportCSV(arg(a, 0), arg(a, 1))) })
	fn("importCSV", func(a []js.Value) any { return string(api.ImportCSV(arg(a, 0), arg(a, 1))) })
	fn("draftBody", func(a []js.Value) any { return string(api.DraftBody([]byte(arg(a, 0)))) })
	fn("parseBody", func(a []js.Value) any { return string(api.ParseBody(arg(a, 0))) })
	fn("readEntities", func(a []js.Value) any { return string(api.ReadEntities(arg(a, 0))) })
	fn("checkBatch", func(a []js.Value) any { return string(api.CheckBatch([]byte(arg(a, 0)))) })
	fn("readBatch", func(a []js.Value) any { return string(api.ReadBatch(arg(a, 0), arg(a, 1))) })
	fn("queryStats", func(a []js.Value) any { return string(api.QueryStats([]byte(arg(a, 0)))) })
	fn("reset", func([]js.Value) any { return api.Reset() })
	fn("snapshot", func([]js.Value) any { return string(st.Snapshot()) })
	fn("restore", func(a []js.Value) any {
		if err := st.Restore([]byte(arg(a, 0))); err != nil {
			return err.Error()
		}
		return ""
	})
}
