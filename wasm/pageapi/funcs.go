package pageapi

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
)

// This file holds the rows' functions for the engine and its accounts;
// remotes.go and lessons.go hold those of connections and lessons.

// stateless is the API of the well-known account, for the functions that
// answer the same for every account.
func stateless(c *Call) *play.API {
	return c.Env.Accounts.Get(rest.WellKnownAccount).API.In(c.Env.locale.loc)
}

func validateTableName(c *Call) string  { return string(stateless(c).ValidateTableName(c.Str(0))) }
func validateEntity(c *Call) string     { return string(stateless(c).ValidateEntity(c.Bytes(0))) }
func decodeContinuation(c *Call) string { return string(stateless(c).DecodeContinuation(c.Bytes(0))) }
func filterLiteral(c *Call) string      { return string(stateless(c).FilterLiteral(c.Str(0), c.Str(1))) }
func filterExample(c *Call) string      { return string(stateless(c).FilterExample(c.Bytes(0))) }
func draftBody(c *Call) string          { return string(stateless(c).DraftBody(c.Bytes(0))) }
func editBody(c *Call) string           { return string(stateless(c).EditBody(c.Str(0), c.Bytes(1))) }
func parseBody(c *Call) string          { return string(stateless(c).ParseBody(c.Str(0))) }
func readEntities(c *Call) string       { return string(stateless(c).ReadEntities(c.Str(0))) }
func readError(c *Call) string          { return string(stateless(c).ReadError(c.Str(0))) }
func readTables(c *Call) string         { return string(stateless(c).ReadTables(c.Str(0))) }
func checkBatch(c *Call) string         { return string(stateless(c).CheckBatch(c.Bytes(0))) }
func readBatch(c *Call) string          { return string(stateless(c).ReadBatch(c.Str(0), c.Str(1))) }

func previewEntity(c *Call) string {
	return string(api(c).PreviewEntity(c.Bytes(0), c.Str(1), c.Str(2)))
}
func requestFor(c *Call) string   { return string(api(c).RequestFor(c.Bytes(0))) }
func run(c *Call) string          { return string(api(c).Run(c.Bytes(0))) }
func exportCSV(c *Call) string    { return string(api(c).ExportCSV(c.Str(0), c.Str(1))) }
func importCSV(c *Call) string    { return string(api(c).ImportCSV(c.Str(0), c.Str(1))) }
func queryStats(c *Call) string   { return string(api(c).QueryStats(c.Bytes(0))) }
func queryPicture(c *Call) string { return string(api(c).QueryPicture(c.Bytes(0))) }
func explainFilter(c *Call) string {
	return string(api(c).ExplainFilter(c.Str(0), c.Str(1)))
}
func changes(c *Call) string  { return string(c.Account.Changes.Drain()) }
func snapshot(c *Call) string { return string(c.Account.Store.Snapshot()) }
func reset(c *Call) string    { return api(c).Reset() }
func restore(c *Call) string  { return errText(c.Account.Store.Restore(c.Bytes(0))) }

// applyChange applies a change record another tab's engine made, without
// recording it again.
func applyChange(c *Call) string { return errText(c.Account.Store.Redo(c.Bytes(0))) }

// codeFor writes the operation as a program. An embed says where its code
// connects (docs/embedding.md); otherwise the code names the page's server
// only when it is a local one (tableplay serve on another port), else the
// emulator's well-known address.
func codeFor(c *Call) string {
	var target *struct {
		Endpoint    string `json:"endpoint"`
		Account     string `json:"account"`
		CreateTable bool   `json:"createTable"`
	}
	if json.Unmarshal(c.Bytes(2), &target) == nil && target != nil {
		return string(api(c).CodeForTarget(c.Bytes(0), c.Str(1), target.Endpoint, target.Account, target.CreateTable))
	}
	endpoint := ""
	if b := api(c).Base; strings.HasPrefix(b, "http://127.0.0.1:") || strings.HasPrefix(b, "http://localhost:") {
		endpoint = b
	}
	return string(api(c).CodeFor(c.Bytes(0), c.Str(1), endpoint))
}

// createAccount adds an empty account answering as the named profile (the
// default when none is named).
func createAccount(c *Call) string {
	p := profile.Default()
	if name := c.Str(1); name != "" {
		var ok bool
		if p, ok = profile.ByName(name); !ok {
			return errJSON(errUnknownProfile(name))
		}
	}
	x, err := c.Env.Accounts.CreateAs(c.Str(0), p)
	if err != nil {
		return errJSON(err.Error())
	}
	return answer(map[string]string{"name": x.Name})
}

func dropAccount(c *Call) string { return errText(c.Env.Accounts.Drop(c.Str(0))) }

// profiles lists the implementations an account can answer as
// (docs/profiles.md), the default first.
func profiles(*Call) string {
	type entry struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	}
	out := []entry{}
	for _, n := range profile.Names() {
		p, _ := profile.ByName(n)
		out = append(out, entry{p.Name, p.Title})
	}
	return answer(out)
}

// differences lists where the profiles depart from Azure, in words
// (core/profile): all of them, or those that concern one rule id.
func differences(c *Call) string {
	ds := profile.Differences()
	if concern := c.Str(0); concern != "" {
		ds = profile.DifferencesFor(concern)
	}
	if ds == nil {
		return "[]"
	}
	return answer(play.LocalDifferences(c.Env.locale.loc, ds))
}

func accountProfile(c *Call) string {
	p := c.Account.Store.Profile()
	return answer(map[string]string{"name": p.Name, "title": p.Title})
}

func setProfile(c *Call) string {
	p, ok := profile.ByName(c.Str(0))
	if !ok {
		return errUnknownProfile(c.Str(0))
	}
	return errText(c.Env.Accounts.SetProfile(c.Account.Name, p))
}

// memory reports the Go heap after a collection, for make measure.
func memory(*Call) string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return answer(map[string]uint64{"heapAlloc": m.HeapAlloc, "sys": m.Sys})
}

// errText is err's text, or "" for none (a Nothing answer).
func errText(err error) string {
	if err != nil {
		return err.Error()
	}
	return ""
}

// errUnknownProfile is the answer to a profile name ByName does not know.
func errUnknownProfile(name string) string {
	return "no profile \"" + name + "\"; the profiles are " + strings.Join(profile.Names(), ", ")
}
