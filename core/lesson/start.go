package lesson

import (
	"encoding/json"
	"fmt"
	"strings"
)

// startDoc is the part of a snapshot document the lesson edits: its tables'
// entity lists; everything else passes through untouched.
type startDoc struct {
	Format     string           `json:"format"`
	Version    int              `json:"version"`
	Properties json.RawMessage  `json:"properties,omitempty"`
	Tables     []map[string]any `json:"tables"`
}

// generatedStamp is the Timestamp of every generated entity.
const generatedStamp = "2026-01-01T00:00:00.0000000Z"

// Account returns the lesson's start account as a snapshot document, its
// datasets generated into their tables (a table a dataset names that Start
// lacks is added).
func (l *Lesson) Account() ([]byte, error) {
	if len(l.Generate) == 0 {
		return l.Start, nil
	}
	var doc startDoc
	if err := json.Unmarshal(l.Start, &doc); err != nil {
		return nil, fmt.Errorf("start: %v", err)
	}
	for _, d := range l.Generate {
		var t map[string]any
		for _, c := range doc.Tables {
			if name, _ := c["name"].(string); strings.EqualFold(name, d.Table) {
				t = c
			}
		}
		if t == nil {
			t = map[string]any{"name": d.Table, "created": generatedStamp, "entities": []any{}}
			doc.Tables = append(doc.Tables, t)
		}
		list, _ := t["entities"].([]any)
		for i := 0; i < d.Count; i++ {
			props := make([]any, 0, len(d.Properties))
			for _, p := range d.Properties {
				props = append(props, []string{p.Name, p.Type, p.value(d.Seed, i)})
			}
			list = append(list, map[string]any{
				"PartitionKey": d.PartitionKey.value(d.Seed, i),
				"RowKey":       d.RowKey.value(d.Seed, i),
				"Timestamp":    generatedStamp,
				"properties":   props,
			})
		}
		t["entities"] = list
	}
	return json.Marshal(doc)
}
