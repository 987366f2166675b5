// Package lessons holds the playground's lesson documents (one <id>.json
// each; docs/lessons.md describes the format) for the engine to embed.
package lessons

import "embed"

// Files are the lesson documents.
//
//go:embed *.json
var Files embed.FS
