package codegen

import (
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
)

// kindOperation is an operation of kind k built from its row: a table,
// the keys when it addresses an entity, the entity when it sends one, and
// for a batch one part of each write a changeset may hold.
func kindOperation(k op.Kind) op.Operation {
	s := k.Spec()
	o := op.Operation{Kind: k, Table: "T"}
	if s.Addressed {
		o.PartitionKey, o.RowKey = "p", "r"
	}
	if s.Body == op.EntityBody || s.Body == op.UpdateBody {
		o.Entity = &entity.Entity{PartitionKey: "p", RowKey: "r"}
	}
	if s.Body == op.BatchBody {
		for _, p := range op.Kinds() {
			if ps := p.Spec(); ps.InBatch && ps.Writes {
				o.Operations = append(o.Operations, kindOperation(p))
			}
		}
	}
	return o
}

// TestEveryKindHasCodeInEveryLanguage walks the table of kinds: every kind
// the generators cover by its row (not the XML endpoints) has a program in
// every language; the others are refused.
func TestEveryKindHasCodeInEveryLanguage(t *testing.T) {
	for _, k := range op.Kinds() {
		covered := !k.Spec().XML
		for _, lang := range Languages() {
			s, err := For(kindOperation(k), lang, Options{})
			switch {
			case covered && (err != nil || !strings.Contains(s.Code, "T")):
				t.Errorf("%v in %s: %v", k, lang, err)
			case !covered && err == nil:
				t.Errorf("%v in %s: code for an operation no SDK client has", k, lang)
			}
		}
	}
}

// TestAKindWithoutStatementsFailsLoudly: a kind no language has statements
// for (a row added in core/op, its code not yet written) is an error in
// every language, alone or as a batch part, never a program without its
// operation.
func TestAKindWithoutStatementsFailsLoudly(t *testing.T) {
	fake := op.Operation{Kind: op.Kind(255), Table: "T"}
	batch := op.Operation{Kind: op.Batch, Table: "T", Operations: []op.Operation{fake}}
	for _, o := range []op.Operation{fake, batch} {
		programs := map[string]func() (string, error){
			Go:         func() (string, error) { return goProgram(o, Options{}) },
			JavaScript: func() (string, error) { return jsProgram(o, Options{}) },
			Python:     func() (string, error) { return pyProgram(o, Options{}) },
			CSharp:     func() (string, error) { return csProgram(o, Options{}) },
			Curl:       func() (string, error) { return curlCommands(o, Options{}) },
		}
		for _, lang := range Languages() {
			if code, err := programs[lang](); err == nil || !strings.Contains(err.Error(), "no "+lang+" code") {
				t.Errorf("%s, %v: %v\n%s", lang, o.Kind, err, code)
			}
		}
	}
	if _, err := For(fake, Go, Options{}); err == nil {
		t.Error("For generated code for a kind without a row")
	}
}
