package main

import (
	"net/http"
	"path"
	"strings"
)

// site serves the static site (make site) from a store of files: Workers
// static assets in a deployment, workerd's disk service locally. The disk
// service knows no index files or media types, so a directory is answered
// with its index.html and a file's type comes from its extension when the
// store gives none of its own: a browser runs a module script or streams
// WebAssembly only with the right type.
type site struct {
	fetch func(*http.Request) (*http.Response, error)
}

// ServeHTTP answers GET and HEAD with the file the path names.
func (s site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the site's files are read with GET", http.StatusMethodNotAllowed)
		return
	}
	out := r.Clone(r.Context())
	out.Body = nil
	if strings.HasSuffix(out.URL.Path, "/") {
		out.URL.Path += "index.html"
		out.URL.RawPath = ""
	}
	resp, err := s.fetch(out)
	if err == nil && resp.StatusCode == http.StatusNotFound && out.URL.Path != notFoundPage {
		// A missing page is answered with the site's own 404 page, as
		// tableplay serve and static hosts answer it.
		page := out.Clone(out.Context())
		page.URL.Path = notFoundPage
		if found, ferr := s.fetch(page); ferr == nil && found.StatusCode == http.StatusOK {
			resp.Body.Close()
			resp, out = found, page
			typed(resp, out.URL.Path)
			resp.StatusCode = http.StatusNotFound
		}
	}
	if err != nil {
		http.Error(w, "the site's files are not reachable", http.StatusBadGateway)
		return
	}
	if resp.StatusCode == http.StatusOK {
		typed(resp, out.URL.Path)
	}
	if framedOnlyHere(out.URL.Path) {
		resp.Header.Set("Content-Security-Policy", "frame-ancestors 'self'")
		resp.Header.Set("X-Frame-Options", "SAMEORIGIN")
	}
	copyResponse(w, resp)
}

// framedOnlyHere reports whether a file of the site is a page only its
// own origin may frame: every HTML page but embed.html, which is made to
// be framed. The page keeps an account that a hidden frame on another
// origin could steer clicks into; the deployment's _headers (written by
// scripts/build-site) and tableplay serve say the same, and workerd's disk
// service, which serves the site locally, reads no _headers.
func framedOnlyHere(name string) bool {
	return strings.HasSuffix(name, ".html") && path.Base(name) != "embed.html"
}

// typed gives a found file the type of its extension when the store gave
// it none of its own.
func typed(resp *http.Response, name string) {
	if t, ok := mediaTypes[path.Ext(name)]; ok {
		if ct := resp.Header.Get("Content-Type"); ct == "" || ct == "application/octet-stream" {
			resp.Header.Set("Content-Type", t)
		}
	}
}

// notFoundPage is the site's 404 page (site/404.html, copied by
// scripts/build-site).
const notFoundPage = "/404.html"

// mediaTypes are the types of the site's files by extension (what
// scripts/build-site copies; .br and .gz variants are fetched by name and
// decoded by the page itself).
var mediaTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
}
