//go:build js && wasm

package main

import (
	"encoding/json"
	"strconv"
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/play"
)

// maxRemotes bounds the connections a page holds at once (it needs one;
// a few allow a reconnect before the old one is dropped).
const maxRemotes = 8

// registerRemotes puts the functions for a Table endpoint outside the
// engine on the binding (web/connect.js): connect checks an endpoint with
// its key or SAS and answers {id, endpoint, account, auth} or {error};
// remoteRequest builds an operation's request for it, signed with the key
// (Shared Key Lite) or carrying the SAS, for the page to send with fetch;
// remoteCode generates the code that runs against it; disconnect forgets
// it. readExchange and compareAnswers read answers the page fetched. The
// key and SAS stay in this Go instance's memory until disconnect.
func registerRemotes(fn func(string, func([]js.Value) any), arg func([]js.Value, int) string) {
	remotes := map[string]*play.Remote{}
	next := 0
	errJSON := func(msg string) string {
		b, _ := json.Marshal(map[string]string{"error": msg})
		return string(b)
	}
	fn("connect", func(a []js.Value) any {
		var c play.Connection
		if err := json.Unmarshal([]byte(arg(a, 0)), &c); err != nil {
			return errJSON("not a connection: " + err.Error())
		}
		if len(remotes) >= maxRemotes {
			return errJSON("too many connections: disconnect one first")
		}
		r, err := play.Connect(c, time.Now)
		if err != nil {
			return errJSON(err.Error())
		}
		next++
		id := "remote" + strconv.Itoa(next)
		remotes[id] = r
		b, _ := json.Marshal(map[string]string{"id": id, "endpoint": r.Endpoint, "account": r.Account, "auth": r.Auth})
		return string(b)
	})
	fn("disconnect", func(a []js.Value) any {
		delete(remotes, arg(a, 0))
		return ""
	})
	remote := func(name string, f func(r *play.Remote, a []js.Value) []byte) {
		fn(name, func(a []js.Value) any {
			r := remotes[arg(a, 0)]
			if r == nil {
				return errJSON("not connected")
			}
			return string(f(r, a[1:]))
		})
	}
	remote("remoteRequest", func(r *play.Remote, a []js.Value) []byte { return r.API.RequestFor([]byte(arg(a, 0))) })
	remote("remoteCode", func(r *play.Remote, a []js.Value) []byte { return r.Code([]byte(arg(a, 0)), arg(a, 1)) })
	fn("readExchange", func(a []js.Value) any { return string(play.Answered([]byte(arg(a, 0)), []byte(arg(a, 1)))) })
	fn("compareAnswers", func(a []js.Value) any { return string(play.Compare([]byte(arg(a, 0)))) })
}
