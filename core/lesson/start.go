package lesson

import (
	"encoding/json"
	"fmt"
	"strings"
)

// startDoc is the part of a snapshot document the lesson edits: its tables'
// entity lists; everything else passes through untouched.
type startDoc struct {
	Format     string                       `json:"format"`
	Version    int                          `json:"version"`
	Properties json.RawMessage              `json:"properties,omitempty"`
	Tables     []map[string]json.RawMessage `json:"tables"`
}

// genEntity is a generated entity in the snapshot's entity form.
type genEntity struct {
	PartitionKey string      `json:"PartitionKey"`
	RowKey       string      `json:"RowKey"`
	Timestamp    string      `json:"Timestamp"`
	Properties   [][3]string `json:"properties"`
}

// generatedStamp is the Timestamp of every generated entity and the creation
// time of a table a dataset adds.
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
		var t map[string]json.RawMessage
		for _, c := range doc.Tables {
			var name string
			json.Unmarshal(c["name"], &name)
			if strings.EqualFold(name, d.Table) {
				t = c
			}
		}
		if t == nil {
			name, _ := json.Marshal(d.Table)
			t = map[string]json.RawMessage{"name": name, "created": json.RawMessage(`"` + generatedStamp + `"`)}
			doc.Tables = append(doc.Tables, t)
		}
		var list []json.RawMessage
		if raw, ok := t["entities"]; ok {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, fmt.Errorf("start: table %s: %v", d.Table, err)
			}
		}
		gen := make([]genEntity, d.Count)
		for i := range gen {
			e := genEntity{PartitionKey: d.PartitionKey.value(d.Seed, i), RowKey: d.RowKey.value(d.Seed, i),
				Timestamp: generatedStamp, Properties: make([][3]string, len(d.Properties))}
			for j, p := range d.Properties {
				e.Properties[j] = [3]string{p.Name, p.Type, p.value(d.Seed, i)}
			}
			gen[i] = e
		}
		g, err := json.Marshal(gen)
		if err != nil {
			return nil, err
		}
		if len(list) > 0 {
			old, _ := json.Marshal(list)
			g = append(append(old[:len(old)-1], ','), g[1:]...)
		}
		t["entities"] = g
	}
	return json.Marshal(doc)
}
