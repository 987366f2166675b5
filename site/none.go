//go:build !tableplay_site

package site

import "io/fs"

// FS returns nil: this build carries no site (build with `make build`).
func FS() fs.FS { return nil }
