//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// These tests run the entry as it is deployed: its js/wasm build on
// syumai/workers in workerd, in front of the real room objects
// (workers/config.capnp). One workerd serves them all.
var shared struct {
	once sync.Once
	srv  *workerdtest.Server
}

// workerd starts the shared server once, with a test secret and a site of
// one page; it stops when the test binary's last test ends (TestMain).
func workerd(t *testing.T) *workerdtest.Server {
	t.Helper()
	workerdtest.Bin(t) // each test skips (or fails under make test) without workerd
	shared.once.Do(func() {
		// Directories of the test binary's, not of the first test's.
		dir, err := os.MkdirTemp("", "tableplay-entry-")
		if err != nil {
			t.Fatal(err)
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		site, data := filepath.Join(dir, "site"), filepath.Join(dir, "data")
		os.Mkdir(data, 0o755)
		os.Mkdir(site, 0o755)
		os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>tableplay</title>"), 0o644)
		os.WriteFile(filepath.Join(site, "404.html"), []byte("<!doctype html><title>Not found</title>"), 0o644)
		os.WriteFile(filepath.Join(site, "embed.html"), []byte("<!doctype html><title>embed</title>"), 0o644)
		// The creation bounds are TestWorkerdCreationBounded's, on a
		// server of its own.
		shared.srv = workerdtest.Start(keep{t}, workerdtest.Options{Env: []string{"ROOM_SECRET=entry test secret", "ROOM_CREATE_PER_CLIENT=0", "ROOM_CREATE_TOTAL=0"}, Site: site, Data: data})
	})
	if shared.srv == nil {
		t.Fatal("workerd did not start (see the first test's failure)")
	}
	return shared.srv
}

// keep hands the shared server a test whose cleanups run at TestMain's end
// rather than the first test's.
type keep struct{ *testing.T }

func (k keep) Cleanup(f func()) { cleanups = append([]func(){f}, cleanups...) }

var cleanups []func()

func TestMain(m *testing.M) {
	workerdtest.Main(m, func() {
		for _, f := range cleanups {
			f()
		}
	})
}

func TestWorkerdRoomThroughTheSDK(t *testing.T) {
	srv := workerd(t)
	start := time.Now()
	r := createRoom(t, srv.URL, "")
	created := time.Since(start)
	checkAnswer(t, srv.URL, r, defaultIdle)
	useRoom(t, r)
	t.Logf("POST /rooms answered in %v; the room answered the SDK's three requests %v after the POST",
		created.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

func TestWorkerdReadLinkCannotWrite(t *testing.T) {
	srv := workerd(t)
	checkLinks(t, createRoom(t, srv.URL, ""))
}

func TestWorkerdOneRoomsKeyOrSASFailsOnAnother(t *testing.T) {
	srv := workerd(t)
	checkIsolation(t, createRoom(t, srv.URL, ""), createRoom(t, srv.URL, ""))
}

func TestWorkerdOverLimitsAnswerClearly(t *testing.T) {
	srv := workerd(t)
	ctx := context.Background()
	r := createRoom(t, srv.URL, `{"limits":{"entities":2}}`)
	svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	if _, err := svc.CreateTable(ctx, "full", nil); err != nil {
		t.Fatal(err)
	}
	tc := svc.NewClient("full")
	for _, rk := range []string{"1", "2"} {
		if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"`+rk+`"}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"3"}`), nil)
	if status, code := statusCode(err); status != 403 || code != "RoomLimitExceeded" || !strings.Contains(err.Error(), "2 entities") {
		t.Fatalf("a third entity in a room of two: %v", err)
	}
	if _, err := tc.GetEntity(ctx, "p", "1", nil); err != nil {
		t.Fatalf("a full room cannot be read: %v", err)
	}

	// One request a second: a quick second request is throttled as the
	// service throttles, 503 ServerBusy in its error format.
	r = createRoom(t, srv.URL, `{"limits":{"rps":1}}`)
	svc, _ = aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	busy := false
	for i := 0; i < 20 && !busy; i++ {
		req, _ := http.NewRequest("GET", r.Endpoint+"/Tables", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 503 {
			busy = true
			if !bytes.Contains(body, []byte(`"code":"ServerBusy"`)) || resp.Header.Get("X-Ms-Request-Id") == "" {
				t.Fatalf("throttled as %v %s", resp.Header, body)
			}
		}
	}
	if !busy {
		t.Fatal("20 requests in a row to a room of one request a second were all answered")
	}
}

func TestWorkerdExpiredRoomSaysSo(t *testing.T) {
	srv := workerd(t)
	r := createRoom(t, srv.URL, `{"idleSeconds":1}`)
	svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "idle", nil); err != nil {
		t.Fatal(err)
	}
	// Each try is activity, so each waits twice the idle time first; the
	// object's alarm deletes the room meanwhile.
	var err error
	for try := 0; try < 4 && err == nil; try++ {
		time.Sleep(2 * time.Second)
		_, err = svc.NewClient("idle").NewListEntitiesPager(nil).NextPage(ctx)
	}
	if status, code := statusCode(err); status != 404 || code != "ResourceNotFound" || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("a room idle past its time: %v", err)
	}
}

func TestWorkerdCrossOrigin(t *testing.T) {
	srv := workerd(t)
	checkPreflights(t, srv.URL, createRoom(t, srv.URL, ""))
}

func TestWorkerdServesTheSite(t *testing.T) {
	srv := workerd(t)
	for path, want := range map[string]struct {
		status int
		title  string
	}{"/": {200, "tableplay"}, "/index.html": {200, "tableplay"}, "/missing/page": {404, "Not found"}} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want.status || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(string(body), "<title>"+want.title+"</title>") {
			t.Errorf("GET %s: %d %v %q", path, resp.StatusCode, resp.Header, body)
		}
	}
}

// TestWorkerdPagesAreNotFramedElsewhere: as make run-worker serves the
// site, every page but embed.html says that only its own origin may frame
// it (as the deployment's _headers and tableplay serve say); embed.html,
// made to be framed, and the other files say nothing of frames.
func TestWorkerdPagesAreNotFramedElsewhere(t *testing.T) {
	srv := workerd(t)
	for path, only := range map[string]bool{"/": true, "/index.html": true, "/missing/page": true, "/embed.html": false} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp, xfo := resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Frame-Options")
		if only && (csp != "frame-ancestors 'self'" || xfo != "SAMEORIGIN") || !only && (csp != "" || xfo != "") {
			t.Errorf("GET %s: Content-Security-Policy %q, X-Frame-Options %q (framed only here: %v)", path, csp, xfo, only)
		}
	}
}

// TestWorkerdConcurrentClients: one Go instance serves the isolate's
// requests, many at once; eight SDK clients writing to two rooms at the
// same time all get their answers, and each room holds exactly its writes.
func TestWorkerdConcurrentClients(t *testing.T) {
	srv := workerd(t)
	ctx := context.Background()
	rooms := []room{createRoom(t, srv.URL, ""), createRoom(t, srv.URL, "")}
	for _, r := range rooms {
		svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
		if _, err := svc.CreateTable(ctx, "busy", nil); err != nil {
			t.Fatal(err)
		}
	}
	const clients, writes = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, clients*writes)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			svc, _ := aztables.NewServiceClientFromConnectionString(rooms[c%2].ConnectionString, nil)
			tc := svc.NewClient("busy")
			for i := 0; i < writes; i++ {
				e := fmt.Sprintf(`{"PartitionKey":"c%d","RowKey":"%03d"}`, c, i)
				if _, err := tc.AddEntity(ctx, []byte(e), nil); err != nil {
					errs <- err
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, r := range rooms {
		svc, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
		page, err := svc.NewClient("busy").NewListEntitiesPager(nil).NextPage(ctx)
		if err != nil || len(page.Entities) != clients/2*writes {
			t.Fatalf("room %s holds %d entities, want %d: %v", r.Account, len(page.Entities), clients/2*writes, err)
		}
	}
}

// TestWorkerdGetWithABody: a GET or HEAD that carries a body (which
// JavaScript's Request refuses to forward) is answered as one without, for a
// room and for the site, and the isolate's Go instance keeps serving.
func TestWorkerdGetWithABody(t *testing.T) {
	srv := workerd(t)
	r := createRoom(t, srv.URL, "")
	for _, c := range []struct {
		method, url string
		status      int
	}{
		{"GET", r.Endpoint + "/Tables", 403}, // unsigned: the engine's own 403
		{"HEAD", r.Endpoint + "/Tables", 403},
		{"GET", srv.URL + "/", 200},
	} {
		req, _ := http.NewRequest(c.method, c.url, strings.NewReader("a body"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || (c.status == 403 && resp.Header.Get("X-Ms-Request-Id") == "") {
			t.Errorf("%s %s with a body: %d %v, want %d\n%s", c.method, c.url, resp.StatusCode, resp.Header, c.status, srv.Log())
		}
	}
	useRoom(t, r)
}
