package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serve runs `tableplay serve` with args on a free loopback port, as main
// does, and returns its base URL; the server stops when the test ends.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	out := make(lineWriter, 16)
	done := make(chan error, 1)
	go func() {
		done <- run(append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet", "--in-memory"}, args...), out, io.Discard)
	}()
	var url string
	select {
	case line := <-out:
		url = strings.TrimSpace(strings.TrimPrefix(line, "tableplay serving on "))
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	t.Cleanup(func() {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("no shutdown after SIGINT")
		}
	})
	return url
}

// fetch sends one GET with the given headers (name, value pairs).
func fetch(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	// No transparent gzip: the test looks at what is on the wire.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// writeFiles creates files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestServeWithoutWebNeverServesTheWorkingDirectory(t *testing.T) {
	// The test runs in cmd/tableplay: main.go is in the working directory.
	base := serve(t)
	if resp, body := fetch(t, base+"/main.go"); resp.StatusCode != 404 || strings.Contains(body, "package main") {
		t.Errorf("/main.go from the working directory: %d", resp.StatusCode)
	}
	resp, body := fetch(t, base+"/", "Accept", "text/html")
	if resp.StatusCode != 404 || !strings.Contains(body, "make build") {
		t.Errorf("/ in a build without the site: %d %q", resp.StatusCode, body)
	}
}

func TestServeWebNeverServesDotfiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":      "<!doctype html><title>page</title>",
		"web/app.js":      "export {}",
		".git/config":     "[core]\n\trepositoryformatversion = 0\n",
		".env":            "SECRET=1",
		"web/.hidden.js":  "secret",
		"web/.cache/x.js": "secret",
	})
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFiles(t, filepath.Dir(outside), map[string]string{"secret.txt": "outside"})
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	base := serve(t, "--web", dir)
	for _, p := range []string{"/", "/index.html", "/web/app.js"} {
		if resp, _ := fetch(t, base+p); resp.StatusCode != 200 {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	for _, p := range []string{"/.git/config", "/%2egit/config", "/.git/", "/.env", "/web/.hidden.js", "/web/.cache/x.js", "/web/../.env", "/link.txt"} {
		if resp, body := fetch(t, base+p); resp.StatusCode != 404 || strings.Contains(body, "secret") || strings.Contains(body, "SECRET") || strings.Contains(body, "outside") {
			t.Errorf("%s: %d %q", p, resp.StatusCode, body)
		}
	}
	// No directory listings either.
	if resp, body := fetch(t, base+"/web/"); resp.StatusCode != 404 || strings.Contains(body, "app.js") {
		t.Errorf("/web/ listed: %d %q", resp.StatusCode, body)
	}
}

func TestServeSendsThePrecompressedVariantAllowed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":            "<!doctype html><title>page</title>",
		"404.html":              "<!doctype html><title>not here</title>",
		"web/build/app.wasm":    "\x00asm raw bytes, the longest of the three",
		"web/build/app.wasm.br": "brotli bytes",
		"web/build/app.wasm.gz": "gzip bytes",
	})
	base := serve(t, "--web", dir)
	wasm := base + "/web/build/app.wasm"
	cases := []struct{ accept, coding, body string }{
		{"gzip, deflate, br, zstd", "br", "brotli bytes"},
		{"gzip", "gzip", "gzip bytes"},
		{"br;q=0, gzip;q=0.5", "gzip", "gzip bytes"},
		{"*", "br", "brotli bytes"},
		{"br;q=0, *;q=0", "", "\x00asm raw bytes, the longest of the three"},
		{"", "", "\x00asm raw bytes, the longest of the three"},
	}
	etags := map[string]string{}
	for _, c := range cases {
		resp, body := fetch(t, wasm, "Accept-Encoding", c.accept)
		h := resp.Header
		if resp.StatusCode != 200 || body != c.body || h.Get("Content-Encoding") != c.coding {
			t.Errorf("Accept-Encoding %q: %d %q encoding %q", c.accept, resp.StatusCode, body, h.Get("Content-Encoding"))
		}
		if h.Get("Content-Type") != "application/wasm" || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "no-cache" || h.Get("ETag") == "" {
			t.Errorf("Accept-Encoding %q: headers %v", c.accept, h)
		}
		if resp.ContentLength != int64(len(c.body)) {
			t.Errorf("Accept-Encoding %q: Content-Length %d", c.accept, resp.ContentLength)
		}
		if c.coding != "" && h.Get("X-Decoded-Length") != "40" /* the raw file's size */ {
			t.Errorf("Accept-Encoding %q: X-Decoded-Length %q", c.accept, h.Get("X-Decoded-Length"))
		}
		if prev, ok := etags[c.coding]; ok && prev != h.Get("ETag") {
			t.Errorf("%q: ETag changed from %s to %s", c.coding, prev, h.Get("ETag"))
		}
		etags[c.coding] = h.Get("ETag")
	}
	if len(etags) != 3 || etags["br"] == etags["gzip"] || etags["br"] == etags[""] {
		t.Errorf("each variant needs its own ETag: %v", etags)
	}
	// A second visit revalidates: 304 and no body.
	resp, body := fetch(t, wasm, "Accept-Encoding", "br", "If-None-Match", etags["br"])
	if resp.StatusCode != 304 || body != "" {
		t.Errorf("revalidation: %d %q", resp.StatusCode, body)
	}
	if resp, _ := fetch(t, wasm, "Accept-Encoding", "gzip", "If-None-Match", etags["br"]); resp.StatusCode != 200 {
		t.Errorf("the br ETag must not validate the gzip variant: %d", resp.StatusCode)
	}
	// A versioned URL (make site's NAME?v=VERSION) is the same file, kept
	// by the browser without asking; anything else that looks like one is
	// revalidated.
	for query, want := range map[string]string{
		"?v=0123456789ab":     "public, max-age=31536000, immutable",
		"?v=0123456789":       "no-cache",
		"?v=0123456789AB":     "no-cache",
		"?v=0123456789ab&x=1": "no-cache",
		"?w=0123456789ab":     "no-cache",
	} {
		resp, body := fetch(t, wasm+query, "Accept-Encoding", "br")
		if resp.StatusCode != 200 || body != "brotli bytes" || resp.Header.Get("Cache-Control") != want {
			t.Errorf("%s: %d %q Cache-Control %q, want %q", query, resp.StatusCode, body, resp.Header.Get("Cache-Control"), want)
		}
	}
	// A file without variants has no Vary; a browser navigating to a missing
	// one gets the 404 page, any other client the service's error body.
	if resp, _ := fetch(t, base+"/", "Accept-Encoding", "br"); resp.StatusCode != 200 || resp.Header.Get("Vary") != "" || resp.Header.Get("Content-Encoding") != "" ||
		resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("index.html: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, body := fetch(t, base+"/nope.js", "Accept", "text/html"); resp.StatusCode != 404 || !strings.Contains(body, "not here") {
		t.Errorf("missing file: %d %q", resp.StatusCode, body)
	}
	if resp, body := fetch(t, base+"/nope.js"); resp.StatusCode != 404 || !strings.Contains(body, "ResourceNotFound") {
		t.Errorf("missing file, not a page: %d %q", resp.StatusCode, body)
	}
}

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, br", "br", true},
		{"GZIP", "gzip", true},
		{"br;q=0", "br", false},
		{"br; q=0.0", "br", false},
		{"br;q=0.001", "br", true},
		{"*;q=0.1", "br", true},
		{"*, br;q=0", "br", false},
		{"identity", "br", false},
		{"", "gzip", false},
		{"x-gzip", "gzip", false},
	} {
		if got := accepts(c.header, c.coding); got != c.want {
			t.Errorf("accepts(%q, %q) = %v", c.header, c.coding, got)
		}
	}
}
