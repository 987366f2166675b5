// Package wire reads and writes the text of HTTP/1.1 messages as a $batch
// carries them, without net/http (which the browser build must not link):
// header maps with canonical keys, status texts, request and status lines,
// header blocks and multipart/mixed framing. Everything works on byte slices
// already in memory and is bounded by their length.
package wire
