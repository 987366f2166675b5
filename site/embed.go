//go:build tableplay_site

package site

import (
	"embed"
	"io/fs"
)

// public is `make site`'s output.
//
//go:embed all:public
var public embed.FS

// FS returns the built site, rooted at its index.html.
func FS() fs.FS {
	sub, err := fs.Sub(public, "public")
	if err != nil {
		panic(err) // "public" is a valid constant path: cannot happen
	}
	return sub
}
