package main

import "testing"

// The page that keeps the account may be framed by its own origin only; the
// embed, made to be framed anywhere, is not restricted; scripts carry neither
// header (a frame rule applies to documents).
func TestServeFramesThePageOnlyFromItsOwnOrigin(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":          "<!doctype html><title>page</title>",
		"embed.html":          "<!doctype html><title>embed</title>",
		"404.html":            "<!doctype html><title>not here</title>",
		"docs/demo.html":      "<!doctype html><title>demo</title>",
		"web/app.js":          "export {}",
		"index.html.gz":       "gzip bytes",
		"docs/embed-demo.css": "body{}",
	})
	base := serve(t, "--web", dir)
	cases := []struct {
		path   string
		accept []string
		only   bool
	}{
		{"/", nil, true},
		{"/index.html", nil, true},
		{"/index.html", []string{"Accept-Encoding", "gzip"}, true},
		{"/docs/demo.html", nil, true},
		{"/no/such/page", []string{"Accept", "text/html"}, true},
		{"/embed.html", nil, false},
		{"/web/app.js", nil, false},
		{"/docs/embed-demo.css", nil, false},
	}
	for _, c := range cases {
		resp, _ := fetch(t, base+c.path, c.accept...)
		csp, xfo := resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Frame-Options")
		if c.only && (csp != "frame-ancestors 'self'" || xfo != "SAMEORIGIN") {
			t.Errorf("%s %v: Content-Security-Policy %q, X-Frame-Options %q; want frame-ancestors 'self' and SAMEORIGIN", c.path, c.accept, csp, xfo)
		}
		if !c.only && (csp != "" || xfo != "") {
			t.Errorf("%s: Content-Security-Policy %q, X-Frame-Options %q; want neither", c.path, csp, xfo)
		}
	}
}
