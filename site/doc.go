// Package site holds the playground's static site (the output of
// `make site`) for the native server. It is embedded only in builds with the
// tableplay_site tag (`make build`), so that a fresh clone, where the site is
// not built yet, still compiles, vets and tests; FS is nil in other builds.
package site
