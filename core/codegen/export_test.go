package codegen

// GoSource and LayoutGo let the external tests hold layoutGo equal to
// go/format on every generated program.
var (
	GoSource = goSource
	LayoutGo = layoutGo
)
