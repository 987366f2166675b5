//go:build js && wasm

package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"syscall/js"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
)

// register puts the playground's functions on the binding. Each takes and
// returns strings (JSON where structured); the loader parses them. Functions
// that touch an account take its name first.
func register(binding js.Value, accounts *play.Accounts) {
	fn := func(name string, f func(args []js.Value) any) {
		binding.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) }))
	}
	arg := func(args []js.Value, i int) string {
		if i < len(args) && args[i].Type() == js.TypeString {
			return args[i].String()
		}
		return ""
	}
	// Stateless functions answer the same for every account.
	api := accounts.Get(rest.WellKnownAccount).API
	fn("validateTableName", func(a []js.Value) any { return string(api.ValidateTableName(arg(a, 0))) })
	fn("validateEntity", func(a []js.Value) any { return string(api.ValidateEntity([]byte(arg(a, 0)))) })
	fn("decodeContinuation", func(a []js.Value) any { return string(api.DecodeContinuation([]byte(arg(a, 0)))) })
	fn("filterLiteral", func(a []js.Value) any { return string(api.FilterLiteral(arg(a, 0), arg(a, 1))) })
	fn("filterExample", func(a []js.Value) any { return string(api.FilterExample([]byte(arg(a, 0)))) })
	fn("draftBody", func(a []js.Value) any { return string(api.DraftBody([]byte(arg(a, 0)))) })
	fn("editBody", func(a []js.Value) any { return string(api.EditBody(arg(a, 0), []byte(arg(a, 1)))) })
	fn("parseBody", func(a []js.Value) any { return string(api.ParseBody(arg(a, 0))) })
	fn("readEntities", func(a []js.Value) any { return string(api.ReadEntities(arg(a, 0))) })
	fn("readError", func(a []js.Value) any { return string(api.ReadError(arg(a, 0))) })
	fn("readTables", func(a []js.Value) any { return string(api.ReadTables(arg(a, 0))) })
	fn("checkBatch", func(a []js.Value) any { return string(api.CheckBatch([]byte(arg(a, 0)))) })
	fn("readBatch", func(a []js.Value) any { return string(api.ReadBatch(arg(a, 0), arg(a, 1))) })

	// account runs f on the account named by the first argument; an unknown
	// name answers {"error": …} (or the error text, for the functions that
	// answer "" on success).
	noAccount, _ := json.Marshal(map[string]string{"error": play.ErrNoAccount.Error()})
	account := func(name string, plain bool, f func(acct *play.Account, args []js.Value) any) {
		fn(name, func(a []js.Value) any {
			acct := accounts.Get(arg(a, 0))
			if acct == nil {
				if plain {
					return play.ErrNoAccount.Error()
				}
				return string(noAccount)
			}
			return f(acct, a[1:])
		})
	}
	account("previewEntity", false, func(x *play.Account, a []js.Value) any {
		return string(x.API.PreviewEntity([]byte(arg(a, 0)), arg(a, 1), arg(a, 2)))
	})
	account("requestFor", false, func(x *play.Account, a []js.Value) any { return string(x.API.RequestFor([]byte(arg(a, 0)))) })
	account("run", false, func(x *play.Account, a []js.Value) any { return string(x.API.Run([]byte(arg(a, 0)))) })
	account("codeFor", false, func(x *play.Account, a []js.Value) any {
		// An embed says where its code connects (docs/embedding.md).
		if mode := arg(a, 2); mode != "" {
			return string(x.API.CodeForTarget([]byte(arg(a, 0)), arg(a, 1), arg(a, 3), arg(a, 4), mode == "create"))
		}
		// Code names the page's server only when it is a local one (tableplay
		// serve on another port); otherwise the emulator's well-known address.
		endpoint := ""
		if b := x.API.Base; strings.HasPrefix(b, "http://127.0.0.1:") || strings.HasPrefix(b, "http://localhost:") {
			endpoint = b
		}
		return string(x.API.CodeFor([]byte(arg(a, 0)), arg(a, 1), endpoint))
	})
	account("exportCSV", false, func(x *play.Account, a []js.Value) any { return string(x.API.ExportCSV(arg(a, 0), arg(a, 1))) })
	account("importCSV", false, func(x *play.Account, a []js.Value) any { return string(x.API.ImportCSV(arg(a, 0), arg(a, 1))) })
	account("queryStats", false, func(x *play.Account, a []js.Value) any { return string(x.API.QueryStats([]byte(arg(a, 0)))) })
	// queryPicture places one page of a query in its table's key order.
	account("queryPicture", false, func(x *play.Account, a []js.Value) any { return string(x.API.QueryPicture([]byte(arg(a, 0)))) })
	// explainFilter reads the named table's entities for type mismatches.
	account("explainFilter", false, func(x *play.Account, a []js.Value) any { return string(x.API.ExplainFilter(arg(a, 0), arg(a, 1))) })
	account("changes", false, func(x *play.Account, _ []js.Value) any { return string(x.Changes.Drain()) })
	account("applyChange", true, func(x *play.Account, a []js.Value) any {
		if err := x.Store.Redo([]byte(arg(a, 0))); err != nil {
			return err.Error()
		}
		return ""
	})
	account("snapshot", false, func(x *play.Account, _ []js.Value) any { return string(x.Store.Snapshot()) })
	account("reset", true, func(x *play.Account, _ []js.Value) any { return x.API.Reset() })
	account("restore", true, func(x *play.Account, a []js.Value) any {
		if err := x.Store.Restore([]byte(arg(a, 0))); err != nil {
			return err.Error()
		}
		return ""
	})
	registerRemotes(fn, arg)
	fn("createAccount", func(a []js.Value) any {
		p := profile.Default()
		if name := arg(a, 1); name != "" {
			var ok bool
			if p, ok = profile.ByName(name); !ok {
				b, _ := json.Marshal(map[string]string{"error": errUnknownProfile(name)})
				return string(b)
			}
		}
		x, err := accounts.CreateAs(arg(a, 0), p)
		if err != nil {
			b, _ := json.Marshal(map[string]string{"error": err.Error()})
			return string(b)
		}
		b, _ := json.Marshal(map[string]string{"name": x.Name})
		return string(b)
	})
	// profiles lists the implementations an account can answer as
	// (docs/profiles.md), the default first.
	fn("profiles", func([]js.Value) any {
		type entry struct {
			Name  string `json:"name"`
			Title string `json:"title"`
		}
		var out []entry
		for _, n := range profile.Names() {
			p, _ := profile.ByName(n)
			out = append(out, entry{p.Name, p.Title})
		}
		b, _ := json.Marshal(out)
		return string(b)
	})
	// differences lists where the profiles depart from Azure, in words
	// (core/profile): all of them, or those that concern one rule id.
	fn("differences", func(a []js.Value) any {
		ds := profile.Differences()
		if c := arg(a, 0); c != "" {
			ds = profile.DifferencesFor(c)
		}
		b, _ := json.Marshal(ds)
		return string(b)
	})
	account("profile", false, func(x *play.Account, _ []js.Value) any {
		p := x.Store.Profile()
		b, _ := json.Marshal(map[string]string{"name": p.Name, "title": p.Title})
		return string(b)
	})
	fn("setProfile", func(a []js.Value) any {
		p, ok := profile.ByName(arg(a, 1))
		if !ok {
			return errUnknownProfile(arg(a, 1))
		}
		if err := accounts.SetProfile(arg(a, 0), p); err != nil {
			return err.Error()
		}
		return ""
	})
	// memory reports the Go heap after a collection, for make measure.
	fn("memory", func([]js.Value) any {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b, _ := json.Marshal(map[string]uint64{"heapAlloc": m.HeapAlloc, "sys": m.Sys})
		return string(b)
	})
	fn("dropAccount", func(a []js.Value) any {
		if err := accounts.Drop(arg(a, 0)); err != nil {
			return err.Error()
		}
		return ""
	})
}

// errUnknownProfile is the answer to a profile name ByName does not know.
func errUnknownProfile(name string) string {
	return "no profile \"" + name + "\"; the profiles are " + strings.Join(profile.Names(), ", ")
}
