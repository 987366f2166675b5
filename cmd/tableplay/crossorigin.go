package main

import (
	"net/http"
	"strings"
)

// The page's scripts, styles, engine, glue and lesson data are what a
// <table-playground> on another site loads (docs/embedding.md): module
// scripts and fetch() read them in CORS mode, so each is sent readable by any
// origin. They are public files that carry no account and take no
// credentials. The pages themselves are not: an HTML page is only ever
// navigated to or framed (frames.go), and the Table API keeps the account's
// own CORS rules (core/rest/cors.go). The loader (web/engine.js) reads
// Content-Encoding and X-Decoded-Length for its progress in bytes on the wire,
// and the glue's Resource Timing (or its Content-Encoding) to tell a
// compressing server from one that is not, so both are exposed to every
// origin as well.
const (
	assetExposeHeaders = "Content-Encoding, X-Decoded-Length"
)

// sharedWithAnyOrigin reports whether the file named (a path in the site) is
// an asset other sites may read: every file but an HTML page.
func sharedWithAnyOrigin(name string) bool {
	return !strings.HasSuffix(name, ".html")
}

// allowAnyOrigin adds the headers that let any origin read an asset.
func allowAnyOrigin(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", assetExposeHeaders)
	h.Set("Timing-Allow-Origin", "*")
}
