// Package play is the playground's view of the engine: the functions the page
// calls besides the Table API itself — validation reports with rule-card
// data, previews of the wire JSON, filter explanations and the exact request
// the Go SDK would send for an operation. Every function takes and returns
// JSON, so the browser binding (wasm/) is a thin shell and the page holds no
// data-model logic.
package play
