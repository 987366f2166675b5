package main

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

func TestServerRoutesAPIAndFiles(t *testing.T) {
	web := t.TempDir()
	os.WriteFile(filepath.Join(web, "index.html"), []byte("<!doctype html><title>tableplay</title>"), 0o644)
	os.MkdirAll(filepath.Join(web, "web", "build"), 0o755)
	os.WriteFile(filepath.Join(web, "web", "build", "app.wasm"), []byte("\x00asm"), 0o644)
	os.WriteFile(filepath.Join(web, "web", "app.js"), []byte("export {}"), 0o644)
	var logs bytes.Buffer
	srv := httptest.NewServer(newServer(serverConfig{files: os.DirFS(web), allowAnonymous: true, clock: time.Now, log: log.New(&logs, "", 0)}))
	defer srv.Close()

	get := func(path string, hdr ...string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for path, want := range map[string]string{"/": "text/html", "/web/build/app.wasm": "application/wasm", "/web/app.js": "javascript"} {
		resp := get(path)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), want) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	resp := get("/devstoreaccount1/Tables", "Accept", "application/json;odata=nometadata")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != `{"value":[]}` {
		t.Errorf("API: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), "GET /devstoreaccount1/Tables 200") || strings.Count(logs.String(), "\n") != 4 {
		t.Errorf("request log:\n%s", logs.String())
	}
}

// TestServerUnknownPaths: a path that is neither the API nor a file gets the
// service's error body, never Go's plain-text 404; the secondary endpoint
// reaches the API (F-UNKNOWN-PATH, F-STATS-SECONDARY).
func TestServerUnknownPaths(t *testing.T) {
	web := t.TempDir()
	os.WriteFile(filepath.Join(web, "index.html"), []byte("<!doctype html>"), 0o644)
	srv := httptest.NewServer(newServer(serverConfig{files: os.DirFS(web), allowAnonymous: true, clock: time.Now}))
	defer srv.Close()
	for _, p := range []string{"/nothing", "/otheraccount/Tables", "/web/missing.js"} {
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || !strings.Contains(string(body), `"code":"ResourceNotFound"`) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d %s %s", p, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/devstoreaccount1-secondary/?restype=service&comp=stats", nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<StorageServiceStats>") {
		t.Errorf("stats on the secondary: %d %s", resp.StatusCode, body)
	}
}

func TestServerRequiresSignatureByDefault(t *testing.T) {
	srv := httptest.NewServer(newServer(serverConfig{clock: time.Now}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/devstoreaccount1/Tables", nil)
	req.Header.Set("Accept", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthenticationFailed" {
		t.Errorf("unsigned request: %d", resp.StatusCode)
	}
}

func TestRunPrintsConnectionStringAndStops(t *testing.T) {
	if err := run([]string{"nope"}, io.Discard, io.Discard); err == nil {
		t.Error("unknown command accepted")
	}
	if err := run([]string{"serve", "--addr", "256.0.0.1:1", "--in-memory"}, io.Discard, io.Discard); err == nil {
		t.Error("bad address accepted")
	}
	cs := connectionString("http", reachable("[::]:10002"), rest.WellKnownAccount, rest.WellKnownKey)
	if cs != "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;" {
		t.Errorf("connection string %s", cs)
	}
}

// lineWriter hands each write to a channel, so a test can wait for output.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	select {
	case w <- string(p):
	default:
	}
	return len(p), nil
}

func TestRunShutsDownOnSIGINT(t *testing.T) {
	out := make(lineWriter, 16)
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"serve", "--addr", "127.0.0.1:0", "--quiet", "--in-memory", "--web", t.TempDir()}, out, io.Discard)
	}()
	select {
	case line := <-out:
		if !strings.HasPrefix(line, "tableplay serving on http://127.0.0.1:") {
			t.Fatalf("first line %q", line)
		}
	case err := <-done:
		t.Fatalf("run ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	// run installs its signal handler before it prints the address.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown after SIGINT")
	}
}

func TestSASCommandMakesAWorkingURL(t *testing.T) {
	srv := httptest.NewServer(newServer(serverConfig{clock: time.Now}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	// A service SAS cannot create tables: the account key does.
	create, _ := http.NewRequest("POST", srv.URL+"/devstoreaccount1/Tables", strings.NewReader(`{"TableName":"demo"}`))
	create.Header.Set("Accept", "application/json")
	create.Header.Set("Content-Type", "application/json")
	signLite(create)
	if resp, err := srv.Client().Do(create); err != nil || resp.StatusCode != 201 {
		t.Fatalf("create: %v %v", err, resp)
	}
	var out bytes.Buffer
	if err := run([]string{"sas", "--addr", addr, "--table", "demo", "--permissions", "ra", "--start-pk", "a", "--end-pk", "m"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	sasURL := strings.TrimSpace(out.String())
	post := func(pk string) int {
		req, _ := http.NewRequest("POST", sasURL, strings.NewReader(`{"PartitionKey":"`+pk+`","RowKey":"r"}`))
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	if got := post("b"); got != 201 {
		t.Errorf("inside the range: %d (%s)", got, sasURL)
	}
	if got := post("z"); got != 403 {
		t.Errorf("outside the range: %d", got)
	}
	if err := run([]string{"sas", "--table", "demo", "--permissions", "rw"}, io.Discard, io.Discard); err == nil {
		t.Error("bad permission letters accepted")
	}
	if err := run([]string{"sas"}, io.Discard, io.Discard); err == nil {
		t.Error("missing --table accepted")
	}
}

// signLite signs a request with the well-known key.
func signLite(r *http.Request) {
	d := time.Now().UTC().Format(http.TimeFormat)
	r.Header.Set("x-ms-date", d)
	r.Header.Set("Authorization", rest.WellKnown().Sign(d, r.URL))
}
