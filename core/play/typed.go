package play

import (
	"fmt"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	typedop "github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
)

// typed converts the page's operation into the typed operation, the one
// conversion requests, code and runs share: the kind by name, the draft
// checked by the entity rules, the keys from the draft, the If-Match choice
// ("" or "*" for any version, else an ETag).
func (o Operation) typed() (typedop.Operation, error) {
	k, ok := typedop.ParseKind(o.Kind)
	if !ok {
		return typedop.Operation{}, fmt.Errorf("unknown operation %q", o.Kind)
	}
	t := typedop.Operation{Kind: k, Table: o.Table, Query: typedop.Options{Filter: o.Filter, Select: o.Select, Top: o.Top,
		NextPartitionKey: o.NextPartitionKey, NextRowKey: o.NextRowKey, NextTableName: o.NextTableName}}
	if k == typedop.Batch {
		// A transaction holds writes (or one get), at most 100 of them.
		if len(o.Operations) > store.MaxBatch {
			return typedop.Operation{}, fmt.Errorf("a batch holds at most %d operations", store.MaxBatch)
		}
		for i, p := range o.Operations {
			if pk, ok := typedop.ParseKind(p.Kind); ok && !pk.InBatch() {
				return typedop.Operation{}, fmt.Errorf("operation %d: %s has no place in a batch", i, p.Kind)
			}
			tp, err := p.typed()
			if err != nil {
				return typedop.Operation{}, fmt.Errorf("operation %d: %v", i, err)
			}
			t.Operations = append(t.Operations, tp)
		}
		if t.Table == "" && len(t.Operations) > 0 {
			t.Table = t.Operations[0].Table
		}
		return t, nil
	}
	spec := k.Spec()
	if spec.Body == typedop.EntityBody || spec.Body == typedop.UpdateBody {
		if o.Entity == nil {
			return typedop.Operation{}, fmt.Errorf("%s needs an entity", o.Kind)
		}
		r := entity.Check(o.Entity.fields())
		if len(r.Violations) > 0 {
			return typedop.Operation{}, fmt.Errorf("the entity breaks a rule: %s", r.Violations[0].Message)
		}
		t.Entity = r.Entity
		t.PartitionKey, t.RowKey = r.Entity.PartitionKey, r.Entity.RowKey
	}
	if spec.Addressed {
		if o.Entity == nil || o.Entity.PartitionKey == nil || o.Entity.RowKey == nil {
			return typedop.Operation{}, fmt.Errorf("%s needs PartitionKey and RowKey", o.Kind)
		}
		t.PartitionKey, t.RowKey = *o.Entity.PartitionKey, *o.Entity.RowKey
	}
	if spec.Condition == typedop.Conditional {
		t.IfMatch = store.Match{Kind: store.MatchAny}
		if o.IfMatch != "" && o.IfMatch != "*" {
			ticks, ok := odata.ParseETag(o.IfMatch)
			if !ok {
				return typedop.Operation{}, fmt.Errorf("not an ETag: %q", o.IfMatch)
			}
			t.IfMatch = store.Match{Kind: store.MatchETag, ETag: ticks}
		}
	}
	return t, nil
}

// TypedOperation reads the page's operation (JSON of Operation) as the typed
// operation the engine executes.
func TypedOperation(opJSON []byte) (typedop.Operation, error) {
	var o Operation
	if err := readJSON(opJSON, &o); err != nil {
		return typedop.Operation{}, fmt.Errorf("not an operation: %v", err)
	}
	return o.typed()
}
