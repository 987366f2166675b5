package main

import "testing"

func TestServeSharesAssetsWithAnyOriginButNotPagesOrTheAPI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":             "<!doctype html><title>page</title>",
		"embed.html":             "<!doctype html><title>embed</title>",
		"web/embed.js":           "export {};",
		"web/embed.css":          "a{}",
		"web/build/go-glue.js":   "export {};",
		"web/build/app.wasm":     "\x00asm raw",
		"web/build/app.wasm.gz":  "gzip bytes",
		"web/lessons/index.json": "[]",
	})
	base := serve(t, "--web", dir)
	origin := "https://docs.example"
	for _, name := range []string{"/web/embed.js", "/web/embed.css", "/web/build/go-glue.js", "/web/build/app.wasm", "/web/build/app.wasm.gz", "/web/lessons/index.json"} {
		for _, accept := range []string{"", "gzip"} {
			resp, _ := fetch(t, base+name, "Origin", origin, "Accept-Encoding", accept)
			h := resp.Header
			if resp.StatusCode != 200 || h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Timing-Allow-Origin") != "*" ||
				h.Get("Access-Control-Expose-Headers") != "Content-Encoding, X-Decoded-Length" {
				t.Errorf("%s (Accept-Encoding %q): %d %v", name, accept, resp.StatusCode, h)
			}
		}
	}
	// Pages are navigated to or framed, never read by another site.
	for _, name := range []string{"/", "/index.html", "/embed.html"} {
		resp, _ := fetch(t, base+name, "Origin", origin)
		if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Timing-Allow-Origin") != "" {
			t.Errorf("%s: %d %v", name, resp.StatusCode, resp.Header)
		}
	}
	// The API keeps its own rules: with none set, no CORS header at all.
	resp, _ := fetch(t, base+"/devstoreaccount1/Tables", "Origin", origin, "Accept", "application/json;odata=nometadata")
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("the API answered another origin without a rule: %v", resp.Header)
	}
}
