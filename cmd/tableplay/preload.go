package main

import (
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
)

// engineScript finds the page's engine module (index.html runs it on its
// own, so the engine's download starts early) and its version query.
var engineScript = regexp.MustCompile(`<script type="module" async src="web/engine\.js(\?v=[0-9a-f]{12})?"`)

// enginePreload is the Link header that starts a page's engine download
// with the page itself, or "". A page names no engine file in its HTML: a
// host that compresses nothing must not be asked for app.wasm raw, and
// web/engine.js asks such a host for app.wasm.br instead. This server sends
// app.wasm compressed when the request accepts a variant it has; the loader
// then asks for app.wasm (the glue came compressed), and this preload is
// that request, made before the modules load. It depends on
// Accept-Encoding, so the answer varies with it.
func (s *fileServer) enginePreload(r *http.Request, name string) string {
	if !strings.HasSuffix(name, ".html") {
		return ""
	}
	page, err := fs.ReadFile(s.files, name)
	if err != nil {
		return ""
	}
	m := engineScript.FindSubmatch(page)
	if m == nil {
		return ""
	}
	wasm := path.Join(path.Dir(name), "web/build/app.wasm")
	for _, e := range encodings {
		vi, err := fs.Stat(s.files, wasm+e.suffix)
		if err == nil && vi.Mode().IsRegular() && accepts(r.Header.Get("Accept-Encoding"), e.token) {
			return "<web/build/app.wasm" + string(m[1]) + ">; rel=preload; as=fetch; crossorigin"
		}
	}
	return ""
}
