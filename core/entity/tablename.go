package entity

import (
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/tableerr"
)

// CheckTableName returns the first rule a table name breaks, in the order the
// service checks them (length, characters, reserved name), or nil.
func CheckTableName(name string) *tableerr.Error {
	if v := TableNameViolations(name); len(v) > 0 {
		return v[0]
	}
	return nil
}

// TableNameViolations returns every rule the name breaks (F-TABLE-RESERVED,
// F-TABLE-NAME-ERRORS).
func TableNameViolations(name string) []*tableerr.Error {
	var out []*tableerr.Error
	n := len([]rune(name))
	if n < MinTableNameLen || n > MaxTableNameLen {
		limit := int64(MaxTableNameLen)
		id, stmt := "table-name-too-long", "A table name is at most 63 characters long."
		if n < MinTableNameLen {
			limit = MinTableNameLen
			id, stmt = "table-name-too-short", "A table name is at least 3 characters long."
		}
		e := tableerr.Broke(tableerr.OutOfRangeInput, tableerr.Rule{
			ID: id, Property: "TableName",
			Measure:   &tableerr.Measure{Value: int64(n), Limit: limit, Unit: "characters"},
			Statement: stmt, Section: secTableNames, DocURL: dataModelURL + "#table-names",
		})
		e.Message = "The specified resource name length is not within the permissible limits."
		out = append(out, e)
	}
	for i, r := range name {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9')
		if ok {
			continue
		}
		at := len([]rune(name[:i])) + 1
		detail := fmt.Sprintf("%q at character %d (counting from 1)", r, at)
		stmt, variant := "A table name holds only the letters A–Z and a–z and the digits 0–9.", ""
		if i == 0 && r >= '0' && r <= '9' {
			stmt, variant = "A table name starts with a letter, not a digit.", "digit-first"
		}
		out = append(out, tableerr.Broke(tableerr.InvalidResourceName, tableerr.Rule{
			ID: "table-name-characters", Property: "TableName", Detail: detail, Variant: variant,
			DetailID: "at-character", DetailArgs: []any{"char", fmt.Sprintf("%q", r), "n", at},
			Statement: stmt, Section: secTableNames, DocURL: dataModelURL + "#table-names",
			Disputed: true, Dispute: "The service's message spells \"specifed\"; Azurite corrects it and sends an empty error code. tableplay sends the service's text (F-TABLE-NAME-ERRORS).",
		}))
		break
	}
	if strings.EqualFold(name, reservedTableName) {
		out = append(out, tableerr.Broke(tableerr.InvalidInput, tableerr.Rule{
			ID: "table-name-reserved", Property: "TableName", Detail: name,
			Statement: "\"tables\" is a reserved name in any case.",
			Section:   secTableNames, DocURL: dataModelURL + "#table-names",
			Disputed: true, Dispute: "The docs say 404; the live service answers 400 InvalidInput, which tableplay follows (F-TABLE-RESERVED).",
		}))
	}
	return out
}
