package codegen

import "github.com/tableplay/tableplay/core/op"

func csProgram(o op.Operation, opt Options) string { return "" }
