//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// postRooms posts /rooms at base as the client at address ip; it answers
// the status, Retry-After and body.
func postRooms(t testing.TB, base, ip string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/rooms", nil)
	req.Header.Set("Cf-Connecting-Ip", ip)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

// TestWorkerdCreationBounded: POST /rooms is bounded per client and in
// total (here 3 and 5 an hour): the client past its bound, and any client
// once the total is reached, get 503 ServerBusy with Retry-After and a
// message naming the bound, and no room is made for them (before: 150
// rooms from one client in 12 s, +315-557 MB of workerd). It also measures
// what a room costs workerd, for docs/hosting.md.
func TestWorkerdCreationBounded(t *testing.T) {
	srv := workerdtest.Start(t, workerdtest.Options{Env: []string{"ROOM_CREATE_PER_CLIENT=3", "ROOM_CREATE_TOTAL=5"}})
	before := workerdtest.RSS(t, srv.Pid())
	for i := 0; i < 3; i++ {
		if status, _, body := postRooms(t, srv.URL, "203.0.113.1"); status != 201 {
			t.Fatalf("room %d of client A: %d %s", i, status, body)
		}
	}
	status, retry, body := postRooms(t, srv.URL, "203.0.113.1")
	if status != 503 || retry == "" || !strings.Contains(body, `"code":"ServerBusy"`) || !strings.Contains(body, "ROOM_CREATE_PER_CLIENT") {
		t.Fatalf("client A's fourth room: %d (Retry-After %q) %s", status, retry, body)
	}
	for i := 0; i < 2; i++ {
		if status, _, body := postRooms(t, srv.URL, "203.0.113.2"); status != 201 {
			t.Fatalf("room %d of client B: %d %s", i, status, body)
		}
	}
	after := workerdtest.RSS(t, srv.Pid())
	status, retry, body = postRooms(t, srv.URL, "203.0.113.3")
	if status != 503 || retry == "" || !strings.Contains(body, "ROOM_CREATE_TOTAL") {
		t.Fatalf("client C's first room past the total: %d (Retry-After %q) %s", status, retry, body)
	}
	srv.Stop()
	files, _ := filepath.Glob(filepath.Join(srv.DataDir(), "tableplay-room", "*.sqlite"))
	// Five rooms and the registry.
	if n := len(files) - 1; n != 6 { // metadata.sqlite
		t.Fatalf("%d databases after five rooms, want 6 (the rooms and the registry)", n)
	}
	t.Logf("5 rooms: workerd RSS %d -> %d MB (%.1f MB a room, the first with the isolates' start)", before>>20, after>>20, float64(after-before)/5/(1<<20))
}

// TestWorkerdMadeUpRoomsCostNothing: 200 requests to room names this
// deployment never gave answer 404 ResourceNotFound from the entry and
// leave no database behind (before: 200 SQLite databases, +7.3 MB).
func TestWorkerdMadeUpRoomsCostNothing(t *testing.T) {
	srv := workerd(t)
	count := func() int {
		files, _ := filepath.Glob(filepath.Join(srv.DataDir(), "tableplay-room", "*"))
		return len(files)
	}
	r := createRoom(t, srv.URL, "")
	before := count()
	for i := 0; i < 200; i++ {
		name := fmt.Sprintf("room%012d", i)
		name = strings.NewReplacer("0", "a", "1", "b", "8", "c", "9", "d").Replace(name)
		if i == 0 {
			name = r.Account[:len(r.Account)-1] + string("ab"[(r.Account[len(r.Account)-1]-'a'+1)%2])
			if name == r.Account {
				name = r.Account[:len(r.Account)-1] + "c"
			}
		}
		resp, err := http.Get(srv.URL + "/" + name + "/Tables")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if resp.StatusCode != 404 || !strings.Contains(string(b), `"code":"ResourceNotFound"`) {
			t.Fatalf("GET /%s/Tables: %d %s", name, resp.StatusCode, b)
		}
	}
	if after := count(); after != before {
		t.Fatalf("200 GETs to made-up rooms: %d files in the rooms' storage, %d before", after, before)
	}
}

// TestWorkerdUnsignedBodiesThroughTheEntry: 40 unsigned 4 MiB PUTs through
// the Go entry grow workerd by far less than the 160 MiB they carry (the
// object refuses them on their heads; before: +266-350 MB), and one
// declared over 4 MiB is answered 413 by the entry.
func TestWorkerdUnsignedBodiesThroughTheEntry(t *testing.T) {
	srv := workerd(t)
	r := createRoom(t, srv.URL, "")
	body := bytes.Repeat([]byte("x"), 4<<20)
	put := func(b []byte) int {
		req, _ := http.NewRequest(http.MethodPut, r.Endpoint+"/big(PartitionKey='p',RowKey='r')", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0 // answered before the body was read: the write was cut
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		return resp.StatusCode
	}
	put(body)
	before := workerdtest.RSS(t, srv.Pid())
	for i := 0; i < 40; i++ {
		if got := put(body); got != 403 && got != 0 {
			t.Fatalf("unsigned 4 MiB PUT %d: %d, want 403", i, got)
		}
	}
	after := workerdtest.RSS(t, srv.Pid())
	t.Logf("workerd RSS %d MB before, %d MB after 40 unsigned 4 MiB PUTs through the entry (+%d MB)", before>>20, after>>20, (after-before)>>20)
	if after-before > 32<<20 {
		t.Fatalf("40 unsigned 4 MiB PUTs grew workerd by %d MB", (after-before)>>20)
	}
	if got := put(append(body, 'x')); got != 413 && got != 0 {
		t.Fatalf("a body of 4 MiB + 1: %d, want 413", got)
	}
}
