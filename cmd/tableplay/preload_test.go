package main

import "testing"

func TestPagePreloadsTheEngineOnlyWhenItIsSentCompressed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":                     `<!doctype html><script type="module" async src="web/engine.js?v=0123456789ab"></script>`,
		"plain.html":                     `<!doctype html><title>no engine</title>`,
		"web/build/app.wasm":             "\x00asm raw",
		"web/build/app.wasm.br":          "brotli",
		"checkout/index.html":            `<script type="module" async src="web/engine.js"></script>`,
		"checkout/web/build/app.wasm":    "\x00asm raw",
		"checkout/web/build/app.wasm.gz": "gzip",
		"raw/index.html":                 `<script type="module" async src="web/engine.js"></script>`,
		"raw/web/build/app.wasm":         "\x00asm raw",
	})
	base := serve(t, "--web", dir)
	const preload = "; rel=preload; as=fetch; crossorigin"
	for _, c := range []struct{ path, accept, link string }{
		{"/", "gzip, deflate, br", "<web/build/app.wasm?v=0123456789ab>" + preload},
		{"/index.html", "br", "<web/build/app.wasm?v=0123456789ab>" + preload},
		{"/", "gzip", ""}, // no variant this client takes: app.wasm would come raw
		{"/", "", ""},
		{"/plain.html", "br", ""}, // no engine on the page
		{"/checkout/", "gzip", "<web/build/app.wasm>" + preload},
		{"/raw/", "br, gzip", ""}, // no compressed engine at all
	} {
		resp, _ := fetch(t, base+c.path, "Accept-Encoding", c.accept)
		if resp.StatusCode != 200 || resp.Header.Get("Link") != c.link {
			t.Errorf("%s (Accept-Encoding %q): %d Link %q, want %q", c.path, c.accept, resp.StatusCode, resp.Header.Get("Link"), c.link)
		}
		if c.link != "" && resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: the Link depends on Accept-Encoding, Vary %q", c.path, resp.Header.Get("Vary"))
		}
	}
}
