package entity

import (
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// MaxCosmosTableNameLen is the longest table name Cosmos DB for Table
// creates, in characters (F-COSMOS-TABLE-NAMES).
const MaxCosmosTableNameLen = 254

// cosmosForbidden are the characters a Cosmos table name may not hold.
const cosmosForbidden = `/\#?`

// CheckTableNameBy returns the first rule a table name breaks under rule,
// or nil: the check of a create table and of a name in stored data.
func CheckTableNameBy(rule profile.TableNameRule, name string) *tableerr.Error {
	if rule != profile.CosmosTableNames {
		return CheckTableName(name)
	}
	if v := CosmosTableNameViolations(name); len(v) > 0 {
		return v[0]
	}
	return nil
}

// CheckRequestTableName returns the rule an entity, query or ACL request
// is refused by for the table it names under rule, or nil. Under Cosmos a
// name of the wrong length is only a table that does not exist, so only
// its characters are judged (F-COSMOS-TABLE-NAMES).
func CheckRequestTableName(rule profile.TableNameRule, name string) *tableerr.Error {
	if rule != profile.CosmosTableNames {
		return CheckTableName(name)
	}
	for _, e := range CosmosTableNameViolations(name) {
		if e.Rule.ID == "table-name-characters" {
			return e
		}
	}
	return nil
}

// CosmosTableNameViolations returns every rule of Cosmos's a table name
// breaks: 1 to 254 characters, none of / \ # ?, the last not a space
// (F-COSMOS-TABLE-NAMES). The messages are the ones the SDKs know Cosmos
// by, so they raise their Cosmos table-name error.
func CosmosTableNameViolations(name string) []*tableerr.Error {
	var out []*tableerr.Error
	if n := len([]rune(name)); n < 1 || n > MaxCosmosTableNameLen {
		limit := int64(MaxCosmosTableNameLen)
		id, stmt := "table-name-too-long", "On Cosmos DB a table name is at most 254 characters long."
		if n < 1 {
			limit = 1
			id, stmt = "table-name-too-short", "On Cosmos DB a table name is at least 1 character long."
		}
		e := tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: id, Property: "TableName", Variant: "cosmos",
			Measure:   &tableerr.Measure{Value: int64(n), Limit: limit, Unit: "characters"},
			Statement: stmt, Section: secTableNames, DocURL: dataModelURL + "#table-names",
		})
		e.Message = "One of the input values is invalid."
		out = append(out, e)
	}
	if i := strings.IndexAny(name, cosmosForbidden); i >= 0 {
		e := tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: "table-name-characters", Property: "TableName", Variant: "cosmos",
			Detail:   fmt.Sprintf("%q at character %d (counting from 1)", name[i], len([]rune(name[:i]))+1),
			DetailID: "at-character", DetailArgs: []any{"char", fmt.Sprintf("%q", name[i]), "n", len([]rune(name[:i])) + 1},
			Statement: "On Cosmos DB a table name holds any character but /, \\, # and ?.",
			Section:   secTableNames, DocURL: dataModelURL + "#table-names",
		})
		e.Message = "The table name contains an invalid character."
		out = append(out, e)
	} else if strings.HasSuffix(name, " ") {
		e := tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: "table-name-characters", Property: "TableName", Detail: "a space at the end", Variant: "cosmos-space", DetailID: "space-at-end",
			Statement: "On Cosmos DB a table name does not end with a space.",
			Section:   secTableNames, DocURL: dataModelURL + "#table-names",
		})
		e.Message = "Table name cannot end with a space."
		out = append(out, e)
	}
	return out
}
