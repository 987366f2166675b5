package main

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// noPage is what a binary built without the site answers at /, instead of a
// page that cannot load.
const noPage = `This tableplay binary carries no playground page.
Build one that does with "make build" (it embeds the output of "make site"),
or serve a checkout's files with "tableplay serve --web DIR" after "make wasm".
The Table API answers under /devstoreaccount1/ either way.
`

// encodings are the precompressed variants the file server looks for, best
// first: NAME.br, then NAME.gz.
var encodings = [...]struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// fileServer serves the page's files from one fs.FS: never a dotfile, never a
// directory listing, a precompressed variant when Accept-Encoding allows it,
// and an ETag on every answer so a browser revalidates rather than refetches;
// only a versioned URL (cacheControl) may be kept without asking.
type fileServer struct {
	files    fs.FS        // nil: this binary has no page
	fallback http.Handler // what answers a path that names no file

	mu    sync.Mutex
	etags map[string]etagEntry // by name; recomputed when size or time change
}

// etagEntry is one file's ETag and what it was computed from.
type etagEntry struct {
	size int64
	mod  time.Time
	etag string
}

// newFileServer serves files; a request that names no file goes to
// fallback (the API, which answers with the service's error body,
// F-UNKNOWN-PATH), unless a browser navigates to it and gets the 404 page.
func newFileServer(files fs.FS, fallback http.Handler) *fileServer {
	return &fileServer{files: files, fallback: fallback, etags: map[string]etagEntry{}}
}

// wantsPage reports whether the client asked for an HTML page (a browser
// navigation), which gets the site's 404 page rather than an API error.
func wantsPage(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// ServeHTTP answers GET and HEAD from the files; other methods, and names
// with no file, go to the fallback unless a browser asked for a page.
func (s *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.fallback.ServeHTTP(w, r)
		return
	}
	if s.files == nil {
		if !wantsPage(r) {
			s.fallback.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, noPage)
		return
	}
	name, ok := fileName(r.URL.Path)
	if !ok {
		s.notFound(w, r)
		return
	}
	info, err := fs.Stat(s.files, name)
	if err == nil && info.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Relative, so the page works under any prefix a proxy adds.
			http.Redirect(w, r, path.Base(r.URL.Path)+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		info, err = fs.Stat(s.files, name)
	}
	if err != nil || !info.Mode().IsRegular() {
		s.notFound(w, r)
		return
	}
	s.serveFile(w, r, name, info, http.StatusOK)
}

// fileName turns a URL path into a name in the fs.FS; false for any path with
// a dotfile or dot-directory in it (.git, .env, ..).
func fileName(urlPath string) (string, bool) {
	name := strings.TrimPrefix(urlPath, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	return name, fs.ValidPath(name)
}

// notFound answers 404 with the site's 404.html when it has one.
func (s *fileServer) notFound(w http.ResponseWriter, r *http.Request) {
	if !wantsPage(r) {
		s.fallback.ServeHTTP(w, r)
		return
	}
	info, err := fs.Stat(s.files, "404.html")
	if err != nil || !info.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	s.serveFile(w, r, "404.html", info, http.StatusNotFound)
}

// serveFile sends name, or its best precompressed variant, with its headers.
func (s *fileServer) serveFile(w http.ResponseWriter, r *http.Request, name string, info fs.FileInfo, status int) {
	h := w.Header()
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	if framedOnlyHere(name) {
		h.Set("Content-Security-Policy", frameAncestors)
		h.Set("X-Frame-Options", frameOptions)
	}
	if sharedWithAnyOrigin(name) {
		allowAnyOrigin(h)
	}
	h.Set("Cache-Control", cacheControl(r.URL.RawQuery))
	sent, sentInfo, coding := name, info, ""
	hasVariant := false
	for _, e := range encodings {
		vi, err := fs.Stat(s.files, name+e.suffix)
		if err != nil || !vi.Mode().IsRegular() {
			continue
		}
		hasVariant = true
		if coding == "" && accepts(r.Header.Get("Accept-Encoding"), e.token) {
			sent, sentInfo, coding = name+e.suffix, vi, e.token
		}
	}
	if link := s.enginePreload(r, name); link != "" {
		h.Set("Link", link)
		hasVariant = true // the Link depends on Accept-Encoding
	}
	if hasVariant {
		h.Add("Vary", "Accept-Encoding")
	}
	if coding != "" {
		h.Set("Content-Encoding", coding)
		// The loader scales its progress (counted in decoded bytes) to the
		// bytes on the wire with this.
		h.Set("X-Decoded-Length", strconv.FormatInt(info.Size(), 10))
	}
	f, err := s.files.Open(sent)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	defer f.Close()
	etag, err := s.etag(sent, sentInfo, f)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	h.Set("ETag", etag)
	if status != http.StatusOK {
		// ServeContent only answers 200/206/304; an error page is sent whole.
		h.Set("Content-Length", strconv.FormatInt(sentInfo.Size(), 10))
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			io.Copy(w, f)
		}
		return
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, "cannot seek "+name, http.StatusInternalServerError)
		return
	}
	if coding != "" {
		// ServeContent leaves out Content-Length for an encoded body, but
		// the loader's progress needs it; ranges of a variant are not offered.
		r.Header.Del("Range")
		h.Del("Accept-Ranges")
		h.Set("Content-Length", strconv.FormatInt(sentInfo.Size(), 10))
	}
	http.ServeContent(w, r, name, sentInfo.ModTime(), rs)
}

// cacheControl says how long a browser may keep a file. make site names the
// page's scripts, styles and engine as NAME?v=VERSION, a hash of all the page
// files (scripts/build-site): such a URL never gets other bytes, so it is
// kept without asking again and a second visit reads it from the cache.
// Every other URL (the pages, a checkout's files under --web) may change
// under the same name and is revalidated (ETag) on each use.
func cacheControl(query string) string {
	v, ok := strings.CutPrefix(query, "v=")
	if !ok || len(v) != 12 || strings.Trim(v, "0123456789abcdef") != "" {
		return "no-cache"
	}
	return "public, max-age=31536000, immutable"
}

// cachedETag looks a file's cached ETag up.
func (s *fileServer) cachedETag(name string) (etagEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.etags[name]
	return e, ok
}

// etag is a strong validator from the bytes of the file sent (each variant has
// its own), cached while the file's size and time stay the same.
func (s *fileServer) etag(name string, info fs.FileInfo, f fs.File) (string, error) {
	e, ok := s.cachedETag(name)
	if ok && e.size == info.Size() && e.mod.Equal(info.ModTime()) {
		return e.etag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	rs, ok := f.(io.Seeker)
	if !ok {
		return "", errors.New("not seekable")
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum.Sum(nil)[:18]) + `"`
	s.mu.Lock()
	defer s.mu.Unlock()
	s.etags[name] = etagEntry{size: info.Size(), mod: info.ModTime(), etag: etag}
	return etag, nil
}

// accepts reports whether an Accept-Encoding value allows coding: named (or
// matched by *) with a q-value above zero.
func accepts(header, coding string) bool {
	star := false
	for _, item := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		token = strings.ToLower(strings.TrimSpace(token))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch token {
		case coding:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}
