package play

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/odata"
)

// ReadTables reads an endpoint's answer to Query Tables: {"names": [...]},
// or {"error": why} when the body is not the service's list (not JSON, no
// "value" array, an item without a TableName string), so the page never
// takes an endpoint whose answers it cannot read.
func (a *API) ReadTables(body string) []byte {
	if !odata.WithinDepth([]byte(body), odata.MaxDepth) || !gjson.Valid(body) {
		return errorJSON("the list of tables is not JSON")
	}
	v := gjson.Get(body, "value")
	if !v.IsArray() {
		return errorJSON(`the list of tables has no "value" array`)
	}
	names := []string{}
	bad := ""
	v.ForEach(func(_, t gjson.Result) bool {
		if n := t.Get("TableName"); t.IsObject() && n.Type == gjson.String {
			names = append(names, n.Str)
			return true
		}
		bad = "an item of the list of tables has no TableName"
		return false
	})
	if bad != "" {
		return errorJSON(bad)
	}
	b, _ := json.Marshal(map[string][]string{"names": names})
	return b
}
