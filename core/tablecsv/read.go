package tablecsv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// Problem is one reason a file cannot be imported: the line its row starts
// on (1 is the header), the column by its header name ("" for the row or
// the file), and the reason, with the service's error code when an entity
// rule is broken.
type Problem struct {
	// Line is the 1-based line the row starts on; 1 is the header.
	Line int `json:"line"`
	// Column is the column's header name; "" for the whole row or file.
	Column string `json:"column"`
	// Code is the service's error code when an entity rule is broken.
	Code string `json:"code,omitempty"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

// MaxProblems is how many problems Read reports before it stops looking.
const MaxProblems = 100

// column is a property's place in the header: its value column and, when
// the header has one, its type column.
type column struct {
	name        string
	value, kind int
}

// Read parses a file into entities, every value typed by its row's type
// cell (a property without a type column is a String), every entity checked
// by the service's rules. Any problem rejects the whole file: the entities
// are returned only when there is none. Within a row, a property whose value
// and type cells are both empty is absent; the Timestamp column is ignored
// (the service sets it).
func Read(text string) ([]*entity.Entity, []Problem) {
	recs, err := records(text)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, []Problem{{Line: se.Line, Message: se.Reason}}
		}
		return nil, []Problem{{Line: 1, Message: err.Error()}}
	}
	if len(recs) == 0 {
		return nil, []Problem{{Line: 1, Message: "the file is empty: it needs a header with PartitionKey and RowKey"}}
	}
	cols, problems := header(recs[0])
	if len(problems) > 0 {
		return nil, problems
	}
	width := len(recs[0].fields)
	var out []*entity.Entity
	seen := map[[2]string]int{}
	for _, rec := range recs[1:] {
		if len(problems) >= MaxProblems {
			break
		}
		if len(rec.fields) != width {
			problems = append(problems, Problem{Line: rec.line, Message: fmt.Sprintf("%d fields where the header has %d", len(rec.fields), width)})
			continue
		}
		e, ps := row(rec, cols)
		if len(ps) > 0 {
			problems = append(problems, ps...)
			continue
		}
		k := [2]string{e.PartitionKey, e.RowKey}
		if first, dup := seen[k]; dup {
			problems = append(problems, Problem{Line: rec.line, Column: entity.RowKey,
				Message: fmt.Sprintf("the same PartitionKey and RowKey as line %d", first)})
			continue
		}
		seen[k] = rec.line
		out = append(out, e)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return out, nil
}

// header reads the column layout: each name once, PartitionKey and RowKey
// present, every "X@type" column right after its "X".
func header(rec record) ([]column, []Problem) {
	var cols []column
	var problems []Problem
	at := map[string]int{}
	bad := func(col, msg string) { problems = append(problems, Problem{Line: rec.line, Column: col, Message: msg}) }
	for i, name := range rec.fields {
		if _, dup := at[name]; dup {
			bad(name, "the column appears twice in the header")
			continue
		}
		at[name] = i
		if base, ok := strings.CutSuffix(name, "@type"); ok {
			if i == 0 || rec.fields[i-1] != base {
				bad(name, "a type column must follow its value column "+base)
				continue
			}
			cols[len(cols)-1].kind = i
			continue
		}
		cols = append(cols, column{name: name, value: i, kind: -1})
	}
	for _, k := range []string{entity.PartitionKey, entity.RowKey} {
		if _, ok := at[k]; !ok {
			bad(k, "the header has no "+k+" column")
		}
	}
	return cols, problems
}

// row builds one entity and checks it.
func row(rec record, cols []column) (*entity.Entity, []Problem) {
	var d entity.Draft
	var problems []Problem
	for _, c := range cols {
		text := rec.fields[c.value]
		typeName := ""
		if c.kind >= 0 {
			typeName = rec.fields[c.kind]
		}
		switch c.name {
		case entity.Timestamp:
			continue
		case entity.PartitionKey, entity.RowKey:
			if typeName != "" && !isString(typeName) {
				problems = append(problems, Problem{Line: rec.line, Column: c.name + "@type", Message: c.name + " is always a String"})
				continue
			}
			d.Fields = append(d.Fields, entity.Field{Name: c.name, Value: edm.StringValue(text)})
			continue
		}
		if text == "" && typeName == "" {
			continue // absent in this row
		}
		t, ok := parseType(typeName)
		if !ok {
			problems = append(problems, Problem{Line: rec.line, Column: c.name + "@type",
				Message: fmt.Sprintf("unknown type %q: use one of the eight Edm types", typeName)})
			continue
		}
		v, err := edm.ParseString(t, text)
		if err != nil {
			problems = append(problems, Problem{Line: rec.line, Column: c.name, Message: err.Error()})
			continue
		}
		d.Fields = append(d.Fields, entity.Field{Name: c.name, Value: v})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	r := entity.Check(d)
	for _, v := range r.Violations {
		col := ""
		if v.Rule != nil {
			col = v.Rule.Property
		}
		problems = append(problems, Problem{Line: rec.line, Column: col, Code: string(v.Code), Message: v.Message})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return r.Entity, nil
}

// parseType reads a type cell: "Edm.Int64" or "Int64", any case; empty is
// a String.
func parseType(s string) (edm.Type, bool) {
	if s == "" {
		return edm.String, true
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "Edm."), "edm.")
	for _, t := range edm.Types() {
		if strings.EqualFold(strings.TrimPrefix(t.String(), "Edm."), s) {
			return t, true
		}
	}
	return 0, false
}

func isString(s string) bool {
	t, ok := parseType(s)
	return ok && t == edm.String
}
