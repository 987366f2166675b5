package codegen

import "github.com/tableplay/tableplay/core/op"

func pyProgram(o op.Operation, opt Options) string { return "" }
