package codegen

import "github.com/tableplay/tableplay/core/op"

func notesFor(o op.Operation, language string) []string { return []string{} }
