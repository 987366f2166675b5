package odata

// MaxDepth is how deeply a JSON input may nest objects and arrays. An entity
// body needs 1; the playground's documents need fewer than 10.
const MaxDepth = 64

// WithinDepth reports whether JSON text nests objects and arrays at most max
// deep. It scans iteratively with constant memory, so it runs before any
// recursive parser (gjson's validator recurses once per level: 4 MiB of '['
// would cost it about 900 MB of stack). Text that is not JSON may pass; the
// parser judges it.
func WithinDepth(b []byte, max int) bool {
	depth := 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > max {
				return false
			}
		case ']', '}':
			// A stray closer must not buy room for deeper nesting later.
			if depth > 0 {
				depth--
			}
		}
	}
	return true
}
