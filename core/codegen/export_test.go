package codegen

import "github.com/tableplay/tableplay/core/op"

// GoSource and LayoutGo let the external tests hold layoutGo equal to
// go/format on every generated program.
var (
	GoSource = func(o op.Operation, opt Options) string { src, _ := goSource(o, opt); return src }
	LayoutGo = layoutGo
)
