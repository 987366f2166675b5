package tablecsv

import (
	"strings"

	"github.com/tableplay/tableplay/core/entity"
)

// Write lays entities out as Storage Explorer exports them: PartitionKey,
// RowKey, Timestamp, then for each property name (in order of first
// appearance) its value and "@type" columns, rows ending in CRLF. A row
// leaves both cells of a property it lacks empty.
func Write(entities []*entity.Entity) string {
	var names []string
	index := map[string]int{}
	for _, e := range entities {
		for _, p := range e.Properties {
			if _, ok := index[p.Name]; !ok {
				index[p.Name] = len(names)
				names = append(names, p.Name)
			}
		}
	}
	var b strings.Builder
	head := []string{entity.PartitionKey, entity.RowKey, entity.Timestamp}
	for _, n := range names {
		head = append(head, n, n+"@type")
	}
	writeRow(&b, head)
	cells := make([]string, 3+2*len(names))
	for _, e := range entities {
		clear(cells)
		cells[0], cells[1] = e.PartitionKey, e.RowKey
		if e.Timestamp != 0 {
			cells[2] = e.Timestamp.String()
		}
		for _, p := range e.Properties {
			i := 3 + 2*index[p.Name]
			cells[i], cells[i+1] = p.Value.Text(), p.Value.Type().String()
		}
		writeRow(&b, cells)
	}
	return b.String()
}

// writeRow writes one record, quoting the fields that need it.
func writeRow(b *strings.Builder, fields []string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsAny(f, ",\"\r\n") || f == "" && len(fields) == 1 {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(f, `"`, `""`))
			b.WriteByte('"')
			continue
		}
		b.WriteString(f)
	}
	b.WriteString("\r\n")
}
