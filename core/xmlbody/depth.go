package xmlbody

import "bytes"

// maxDepth bounds the nesting of an ACL or service-properties document:
// the deepest the service defines is 4 (StorageServiceProperties, Cors,
// CorsRule, AllowedOrigins).
const maxDepth = 16

// withinDepth reports whether an XML document nests elements at most
// max deep, scanning once with constant memory before readDoc, which keeps
// every open element (encoding/xml, read with before, spent 150 MB on 4 MiB
// of <a>). Text that is not XML may pass; the reader judges it.
func withinDepth(b []byte, max int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '<' || i+1 >= len(b) {
			continue
		}
		rest := b[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")): // comments, CDATA and declarations hold no element
			i += skipPast(rest, "-->")
			continue
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			i += skipPast(rest, "]]>")
			continue
		case b[i+1] == '?':
			i += skipPast(rest, "?>")
			continue
		case b[i+1] == '!':
			i += skipPast(rest, ">")
			continue
		case b[i+1] == '/':
			if depth > 0 { // a stray end tag must not buy deeper nesting later
				depth--
			}
			continue
		}
		// An opening tag: find its end, past quoted attribute values.
		var quote byte
		j := i + 1
		for ; j < len(b); j++ {
			c := b[j]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
				continue
			}
			if c == '"' || c == '\'' {
				quote = c
			} else if c == '>' {
				break
			}
		}
		if j < len(b) && b[j-1] == '/' {
			i = j
			continue // self-closing
		}
		if depth++; depth > max {
			return false
		}
		i = j
	}
	return true
}

// skipPast returns the index of the last byte of the first end in b, or
// the end of b.
func skipPast(b []byte, end string) int {
	if k := bytes.Index(b, []byte(end)); k >= 0 {
		return k + len(end) - 1
	}
	return len(b)
}
