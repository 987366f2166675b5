package main

import (
	"path"
	"strings"
)

// The playground page keeps an account in the browser and offers buttons
// (Keep) that replace it, so another origin must not put it in an invisible
// frame and steer clicks into it. Only embed.html is made to be framed: it
// keeps nothing. scripts/build-site writes the same two headers into the
// static site's _headers file.
const (
	frameAncestors = "frame-ancestors 'self'"
	frameOptions   = "SAMEORIGIN"
)

// framedOnlyHere reports whether the file named (a path in the site) is a
// page that only this origin may frame: every HTML page but embed.html.
func framedOnlyHere(name string) bool {
	return strings.HasSuffix(name, ".html") && path.Base(name) != "embed.html"
}
