//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
		shared.srv = workerdtest.Start(keep{t}, workerdtest.Options{Env: []string{"ROOM_SECRET=entry test secret"}, Site: site, Data: data})
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
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}

// postRoom creates a room through workerd with the given options body.
func postRoom(t testing.TB, srv *workerdtest.Server, body string) room {
	t.Helper()
	resp, err := http.Post(srv.URL+"/rooms", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("POST /rooms: %d %v %s\n%s", resp.StatusCode, resp.Header, b, srv.Log())
	}
	var r room
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWorkerdRoomThroughTheSDK(t *testing.T) {
	srv := workerd(t)
	start := time.Now()
	r := postRoom(t, srv, "")
	created := time.Since(start)
	if !strings.HasPrefix(r.ConnectionString, "DefaultEndpointsProtocol=http;AccountName="+r.Account+";AccountKey=") ||
		r.Endpoint != srv.URL+"/"+r.Account || r.Key == "" {
		t.Fatalf("room %+v", r)
	}
	svc, err := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "people", nil); err != nil {
		t.Fatalf("create table: %v\n%s", err, srv.Log())
	}
	first := time.Since(start)
	tc := svc.NewClient("people")
	if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","Name":"Ada","Big":"9007199254740993","Big@odata.type":"Edm.Int64"}`), nil); err != nil {
		t.Fatal(err)
	}
	f := "Big eq 9007199254740993L"
	page, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &f}).NextPage(ctx)
	if err != nil || len(page.Entities) != 1 || !strings.Contains(string(page.Entities[0]), `"Name":"Ada"`) {
		t.Fatalf("query: %v %q", err, page.Entities)
	}
	t.Logf("POST /rooms answered in %v; the room's first answer (create table) %v after the POST", created.Round(time.Millisecond), first.Round(time.Millisecond))
}

func TestWorkerdReadLinkCannotWrite(t *testing.T) {
	srv := workerd(t)
	r := postRoom(t, srv, "")
	ctx := context.Background()
	owner, _ := aztables.NewServiceClientFromConnectionString(r.ConnectionString, nil)
	if _, err := owner.CreateTable(ctx, "notes", nil); err != nil {
		t.Fatal(err)
	}
	client := func(link string) *aztables.Client {
		endpoint, sas := linkSAS(t, link)
		svc, err := aztables.NewServiceClientWithNoCredential(endpoint+"?"+sas, nil)
		if err != nil {
			t.Fatal(err)
		}
		return svc.NewClient("notes")
	}
	writer, reader := client(r.WriteLink), client(r.ReadLink)
	if _, err := writer.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1"}`), nil); err != nil {
		t.Fatalf("the write link cannot write: %v", err)
	}
	if _, err := reader.GetEntity(ctx, "p", "1", nil); err != nil {
		t.Fatalf("the read link cannot read: %v", err)
	}
	_, err := reader.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"2"}`), nil)
	if status, code := statusCode(err); status != 403 || code != "AuthorizationPermissionMismatch" {
		t.Fatalf("the read link wrote: %v", err)
	}
	_, err = reader.DeleteEntity(ctx, "p", "1", nil)
	if status, code := statusCode(err); status != 403 || code != "AuthorizationPermissionMismatch" {
		t.Fatalf("the read link deleted: %v", err)
	}
}

func TestWorkerdOneRoomsKeyOrSASFailsOnAnother(t *testing.T) {
	srv := workerd(t)
	a, b := postRoom(t, srv, ""), postRoom(t, srv, "")
	ctx := context.Background()
	bOwner, _ := aztables.NewServiceClientFromConnectionString(b.ConnectionString, nil)
	if _, err := bOwner.CreateTable(ctx, "secrets", nil); err != nil {
		t.Fatal(err)
	}
	tries := map[string]*aztables.ServiceClient{}
	// A's name and key against B's endpoint, and B's name with A's key.
	tries["A's key at B's endpoint"], _ = aztables.NewServiceClientFromConnectionString(strings.Replace(a.ConnectionString, a.Endpoint, b.Endpoint, 1), nil)
	tries["B's name with A's key"], _ = aztables.NewServiceClientFromConnectionString(strings.Replace(b.ConnectionString, b.Key, a.Key, 1), nil)
	for _, link := range []string{a.ReadLink, a.WriteLink} {
		_, sas := linkSAS(t, link)
		tries["A's SAS "+sas[strings.Index(sas, "sp="):][:8]+" at B"], _ = aztables.NewServiceClientWithNoCredential(b.Endpoint+"?"+sas, nil)
	}
	for name, svc := range tries {
		_, err := svc.NewClient("secrets").NewListEntitiesPager(nil).NextPage(ctx)
		if status, code := statusCode(err); status != 403 || code != "AuthenticationFailed" {
			t.Errorf("%s read B: %v", name, err)
		}
		_, err = svc.NewClient("secrets").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"x"}`), nil)
		if status, code := statusCode(err); status != 403 || code != "AuthenticationFailed" {
			t.Errorf("%s wrote B: %v", name, err)
		}
	}
}

func TestWorkerdOverLimitsAnswerClearly(t *testing.T) {
	srv := workerd(t)
	ctx := context.Background()
	r := postRoom(t, srv, `{"limits":{"entities":2}}`)
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
	r = postRoom(t, srv, `{"limits":{"rps":1}}`)
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
			if resp.Header.Get("X-Ms-Error-Code") != "ServerBusy" || !bytes.Contains(body, []byte(`"code":"ServerBusy"`)) {
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
	r := postRoom(t, srv, `{"idleSeconds":1}`)
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
	preflight := func(path, method string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", srv.URL+path, nil)
		req.Header.Set("Origin", "https://elsewhere.example")
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", "content-type,x-ms-version,authorization")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := preflight("/rooms", "POST"); resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("preflight of /rooms: %d %v", resp.StatusCode, resp.Header)
	}
	r := postRoom(t, srv, "")
	resp := preflight("/"+r.Account+"/Tables", "POST")
	// The engine echoes the requested headers: through syumai/workers and
	// back they keep their bytes (its header code splits values at commas),
	// and the Date (with its comma) stays one line.
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!slices.Equal(resp.Header["Access-Control-Allow-Headers"], []string{"content-type,x-ms-version,authorization"}) ||
		len(resp.Header["Date"]) != 1 {
		t.Fatalf("preflight of a room: %d %v", resp.StatusCode, resp.Header)
	}
	if _, err := time.Parse(http.TimeFormat, resp.Header.Get("Date")); err != nil {
		t.Fatalf("the room's Date: %v", err)
	}
	// The answer itself carries the CORS headers the page needs.
	_, sas := linkSAS(t, r.ReadLink)
	req, _ := http.NewRequest("GET", r.Endpoint+"/Tables?"+sas, nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	req.Header.Set("Accept", "application/json;odata=nometadata")
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got.Body.Close()
	if got.StatusCode != 200 || got.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("a read from another origin: %d %v", got.StatusCode, got.Header)
	}
}

func TestWorkerdServesTheSite(t *testing.T) {
	srv := workerd(t)
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(string(body), "<title>tableplay</title>") {
		t.Fatalf("GET /: %d %v %q", resp.StatusCode, resp.Header, body)
	}
}
