package main

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// newEntry serves the entry over loopback with fake objects and a site
// that answers "site".
func newEntry(t *testing.T, cfg config) (*httptest.Server, *fakeRooms) {
	t.Helper()
	rooms := newFakeRooms()
	e := &entry{cfg: cfg, rooms: rooms, clock: time.Now, rnd: cryptoRand,
		assets: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "site") })}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, rooms
}

func testConfig() config {
	return config{secret: []byte("test secret"), idle: time.Hour, limits: limits{Entities: 10, Bytes: 1 << 20, RPS: 5}}
}

func TestCreateRoomAnswersWhatTheSDKTakes(t *testing.T) {
	srv, rooms := newEntry(t, testConfig())
	r := createRoom(t, srv.URL, "")
	checkAnswer(t, srv.URL, r, time.Hour)
	if want := base64.StdEncoding.EncodeToString(roomKey([]byte("test secret"), r.Account)); r.Key != want || r.Key == rest.WellKnownKey {
		t.Fatalf("key %q, want the secret's HMAC of the name %q", r.Key, want)
	}
	c := rooms.created[r.Account]
	if c.IdleSeconds != 3600 || c.Limits != testConfig().limits || c.Key != r.Key {
		t.Fatalf("the object was created with %+v", c)
	}
	useRoom(t, r)
}

func TestRoomLinksReadOrWrite(t *testing.T) {
	srv, _ := newEntry(t, testConfig())
	checkLinks(t, createRoom(t, srv.URL, ""))
}

func TestOneRoomsKeyOrSASFailsOnAnother(t *testing.T) {
	srv, _ := newEntry(t, testConfig())
	checkIsolation(t, createRoom(t, srv.URL, ""), createRoom(t, srv.URL, ""))
}

func TestClientsCannotSpeakForTheEntry(t *testing.T) {
	srv, rooms := newEntry(t, testConfig())
	r := createRoom(t, srv.URL, "")
	req, _ := http.NewRequest("GET", r.Endpoint+"/Tables", nil)
	req.Header.Set("X-Tableplay-Room-Now", "1")
	req.Header.Set("x-tableplay-room-remote", "10.0.0.1")
	req.Header.Set("X-Tableplay-Room-Anything", "x")
	before := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := rooms.last
	if got.Get(headerRemote) != "" || got.Get("X-Tableplay-Room-Anything") != "" {
		t.Fatalf("a client's room headers reached the object: %v", got)
	}
	if now, _ := strconv.ParseInt(got.Get(headerNow), 10, 64); now < before.UnixMilli() || now > time.Now().UnixMilli() {
		t.Fatalf("the object got the clock %q, not the entry's", got.Get(headerNow))
	}
}

func TestPreflightFromAnotherOrigin(t *testing.T) {
	srv, _ := newEntry(t, testConfig())
	checkPreflights(t, srv.URL, createRoom(t, srv.URL, ""))
}

func TestNoSecretNoRooms(t *testing.T) {
	cfg := testConfig()
	cfg.secret = nil
	srv, rooms := newEntry(t, cfg)
	resp, err := http.Post(srv.URL+"/rooms", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 500 || !strings.Contains(string(body), `"code":"InternalError"`) || !strings.Contains(string(body), "ROOM_SECRET") {
		t.Fatalf("without a secret: %d %s", resp.StatusCode, body)
	}
	if len(rooms.created) != 0 {
		t.Fatal("a room was created without a secret")
	}
}

func TestRoutes(t *testing.T) {
	srv, rooms := newEntry(t, testConfig())
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	for _, p := range []string{"/", "/index.html", "/web/app.js", "/roomabc/Tables", "/roomaaaaaaaaaaa1/Tables", "/devstoreaccount1/Tables"} {
		if status, body := get(p); status != 200 || body != "site" {
			t.Errorf("%s: %d %q, want the site", p, status, body)
		}
	}
	// A room name this deployment never gave is answered by the entry,
	// as an object of a room nobody created answers, without reaching one.
	for _, p := range []string{"/roomaaaaaaaaaaaa/Tables", "/roomaaaaaaaaaaaa-secondary/Tables"} {
		rooms.last = nil
		if status, body := get(p); status != 404 || rooms.last != nil || !strings.Contains(body, `"code":"ResourceNotFound"`) {
			t.Errorf("%s: %d %s (reached an object: %v), want the entry's 404", p, status, body, rooms.last != nil)
		}
	}
	// One it gave (an object that holds no room, here) is reached.
	name, _ := newRoomName(cryptoRand, testConfig().secret)
	for _, p := range []string{"/" + name + "/Tables", "/" + name + "-secondary/Tables"} {
		rooms.last = nil
		if status, _ := get(p); status != 404 || rooms.last == nil {
			t.Errorf("%s: %d, want the objects' 404", p, status)
		}
	}
	if status, body := get("/rooms"); status != 405 || !strings.Contains(body, `"code":"MethodNotAllowed"`) {
		t.Errorf("GET /rooms: %d %s", status, body)
	}
}

func TestReadConfig(t *testing.T) {
	env := map[string]string{"ROOM_SECRET": "s", "ROOM_RPS": "7"}
	c, err := readConfig(func(k string) string { return env[k] })
	if err != nil || string(c.secret) != "s" || c.limits.RPS != 7 || c.limits.Entities != defaultEntities ||
		c.limits.Bytes != defaultBytes || c.idle != defaultIdle {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"-1", "1e3", "ten", "5 "} {
		env["ROOM_MAX_BYTES"] = bad
		if _, err := readConfig(func(k string) string { return env[k] }); err == nil {
			t.Errorf("ROOM_MAX_BYTES=%q accepted", bad)
		}
	}
}

func TestSiteIndexAndTypes(t *testing.T) {
	var asked []string
	has404 := true
	files := site{fetch: func(r *http.Request) (*http.Response, error) {
		asked = append(asked, r.URL.Path)
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/octet-stream")
		switch {
		case r.URL.Path == "/missing.js" || r.URL.Path == "/gone/index.html" || r.URL.Path == "/404.html" && !has404:
			rec.WriteHeader(404)
		case r.URL.Path == "/404.html":
			io.WriteString(rec, "<title>Not found</title>")
		}
		if r.URL.Path == "/typed.js" {
			rec.Header().Set("Content-Type", "text/plain")
		}
		return rec.Result(), nil
	}}
	for _, c := range []struct{ path, asked, ctype string }{
		{"/", "/index.html", "text/html; charset=utf-8"},
		{"/docs/", "/docs/index.html", "text/html; charset=utf-8"},
		{"/web/build/app.wasm", "/web/build/app.wasm", "application/wasm"},
		{"/web/app.js", "/web/app.js", "text/javascript; charset=utf-8"},
		{"/typed.js", "/typed.js", "text/plain"},
		{"/web/build/app.wasm.gz", "/web/build/app.wasm.gz", "application/octet-stream"},
	} {
		asked = nil
		rec := httptest.NewRecorder()
		files.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if len(asked) != 1 || asked[0] != c.asked || rec.Header().Get("Content-Type") != c.ctype {
			t.Errorf("%s: asked %v, type %q; want %s, %q", c.path, asked, rec.Header().Get("Content-Type"), c.asked, c.ctype)
		}
	}
	// A missing file is the site's 404 page, with 404; without one, the
	// store's own 404.
	for _, missing := range []string{"/missing.js", "/gone/"} {
		rec := httptest.NewRecorder()
		files.ServeHTTP(rec, httptest.NewRequest("GET", missing, nil))
		if rec.Code != 404 || rec.Body.String() != "<title>Not found</title>" || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: %d %q %q", missing, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	}
	has404 = false
	rec := httptest.NewRecorder()
	files.ServeHTTP(rec, httptest.NewRequest("GET", "/missing.js", nil))
	if rec.Code != 404 || rec.Body.Len() != 0 {
		t.Errorf("without a 404 page: %d %q", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	files.ServeHTTP(rec, httptest.NewRequest("POST", "/index.html", strings.NewReader("x")))
	if rec.Code != 405 {
		t.Errorf("POST to the site: %d", rec.Code)
	}
}

func TestCreateOptionsBoundedByTheDeployment(t *testing.T) {
	srv, rooms := newEntry(t, testConfig())
	post := func(body string) (int, room) {
		resp, err := http.Post(srv.URL+"/rooms", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r room
		json.NewDecoder(resp.Body).Decode(&r)
		return resp.StatusCode, r
	}
	status, r := post(`{"idleSeconds":60,"limits":{"rps":2}}`)
	c := rooms.created[r.Account]
	if status != 201 || c.IdleSeconds != 60 || c.Limits != (limits{Entities: 10, Bytes: 1 << 20, RPS: 2}) {
		t.Fatalf("asked for less: %d %+v", status, c)
	}
	// The answer says what the room was given, for the page to show.
	if r.IdleSeconds != 60 || r.Limits != c.Limits {
		t.Fatalf("the answer says idleSeconds %d, limits %+v; the object got %+v", r.IdleSeconds, r.Limits, c)
	}
	if exp, _ := time.Parse(time.RFC3339, r.Expires); time.Until(exp) > time.Minute {
		t.Fatalf("expires %s, want a minute from now", r.Expires)
	}
	status, r = post(`{"idleSeconds":100000000,"limits":{"entities":1000000,"bytes":0}}`)
	if c := rooms.created[r.Account]; status != 201 || c.IdleSeconds != 3600 || c.Limits != testConfig().limits {
		t.Fatalf("asked for more: %d %+v", status, c)
	}
	for _, bad := range []string{`{"idleSeconds":-1}`, `{"limits":{"rps":"x"}}`, `[`, `{"idleSeconds":1}` + strings.Repeat(" ", maxOptionsBody)} {
		if status, _ := post(bad); status != 400 && status != 413 {
			t.Errorf("%.40q: %d", bad, status)
		}
	}
	if n := len(rooms.created); n != 2 {
		t.Fatalf("%d rooms created, want 2", n)
	}
}

func TestJoinSplitRestoresTheValues(t *testing.T) {
	// What syumai/workers hands Go for "Date: Thu, 26 Nov 2026 12:00:00 GMT"
	// and a list without spaces.
	h := http.Header{"Date": {"Thu", " 26 Nov 2026 12:00:00 GMT"}, "A": {"x", "y", "z"}, "B": {"one"}}
	joinSplit(h)
	want := http.Header{"Date": {"Thu, 26 Nov 2026 12:00:00 GMT"}, "A": {"x,y,z"}, "B": {"one"}}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("%v, want %v", h, want)
	}
}

func TestMisconfiguredAnswersEveryRequestSo(t *testing.T) {
	_, err := readConfig(func(k string) string { return map[string]string{"ROOM_RPS": "lots"}[k] })
	e := &entry{clock: time.Now, rnd: cryptoRand}
	for _, path := range []string{"/rooms", "/roomaaaaaaaaaaaa/Tables", "/"} {
		rec := httptest.NewRecorder()
		misconfigured(e, err).ServeHTTP(rec, httptest.NewRequest("POST", path, nil))
		if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"InternalError"`) || !strings.Contains(rec.Body.String(), `ROOM_RPS=\"lots\"`) {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

// TestNamesCarryTheirTag: a name's tag is the deployment's: the names
// another secret gives, and names with a letter changed, are not issued
// (100 names from a fixed source, so the result never varies).
func TestNamesCarryTheirTag(t *testing.T) {
	a, b := []byte("secret a"), []byte("secret b")
	seed := byte(0)
	fixed := func(p []byte) (int, error) {
		for i := range p {
			seed = seed*31 + 7
			p[i] = seed
		}
		return len(p), nil
	}
	for i := 0; i < 100; i++ {
		name, err := newRoomName(fixed, a)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := roomOf(name); !ok || !issued(a, name) {
			t.Fatalf("%s: not a room name of its own secret", name)
		}
		if issued(b, name) {
			t.Fatalf("%s: passes under another secret", name)
		}
		c := []byte(name)
		c[5] ^= 1 // another base32 letter
		if issued(a, string(c)) {
			t.Fatalf("%s: a changed letter still passes", c)
		}
	}
}

// TestOverLongBodiesStopAtTheEntry: a body declared over 4 MiB is answered
// 413 RequestBodyTooLarge by the entry, before any object is reached.
func TestOverLongBodiesStopAtTheEntry(t *testing.T) {
	srv, rooms := newEntry(t, testConfig())
	r := createRoom(t, srv.URL, "")
	rooms.last = nil
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/"+r.Account+"/t(PartitionKey='p',RowKey='r')", strings.NewReader(strings.Repeat("x", 4<<20+1)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(b), `"code":"RequestBodyTooLarge"`) || rooms.last != nil {
		t.Fatalf("%d %s (reached the object: %v)", resp.StatusCode, b, rooms.last != nil)
	}
}

// TestCreationAsksTheRegistry: POST /rooms asks the registry first, with
// the client's address and the deployment's bounds, and a refusal is the
// service's 503 ServerBusy with Retry-After, naming the bound.
func TestCreationAsksTheRegistry(t *testing.T) {
	cfg := testConfig()
	cfg.createPerClient, cfg.createTotal = 2, 5
	srv, rooms := newEntry(t, cfg)
	var asked admitRequest
	rooms.admit = func(r *http.Request) *http.Response {
		json.NewDecoder(r.Body).Decode(&asked)
		rec := httptest.NewRecorder()
		rec.WriteHeader(429)
		io.WriteString(rec, `{"refused":"client","retryAfter":120}`)
		return rec.Result()
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/rooms", nil)
	req.Header.Set("Cf-Connecting-Ip", "203.0.113.7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "120" || !strings.Contains(string(b), `"code":"ServerBusy"`) || !strings.Contains(string(b), "ROOM_CREATE_PER_CLIENT") {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, b)
	}
	if asked != (admitRequest{Client: "203.0.113.7", PerClient: 2, Total: 5, WindowSeconds: 3600}) || len(rooms.created) != 0 {
		t.Fatalf("asked %+v; rooms created %d", asked, len(rooms.created))
	}
}

// TestRoomLinksAreShort: a room's links name the endpoint as a path on
// their own origin and escape the SAS only where it must be, so each is
// at most 215 characters for this 29-character origin (300 and 313 with everything escaped, as before), and the
// SAS they carry reads as the very values signed.
func TestRoomLinksAreShort(t *testing.T) {
	base := "https://tableplay.example.org"
	now := time.Date(2026, 12, 2, 0, 11, 6, 0, time.UTC)
	r := newRoom(base, "room7k2q9x4m3p8z", []byte("0123456789abcdef0123456789abcdef"), options{IdleSeconds: 7 * 86400}, now)
	for name, link := range map[string]string{"read": r.ReadLink, "write": r.WriteLink} {
		t.Logf("%s link, %d characters: %s", name, len(link), link)
		if len(link) > 215 {
			t.Errorf("the %s link has %d characters", name, len(link))
		}
		if !strings.HasPrefix(link, base+"/#connect=/room7k2q9x4m3p8z&sas=") {
			t.Errorf("the %s link does not name its endpoint as a path: %s", name, link)
		}
		endpoint, sas := linkSAS(t, link)
		if endpoint != r.Endpoint {
			t.Errorf("the %s link's endpoint reads as %q, want %q", name, endpoint, r.Endpoint)
		}
		creds := rest.Credentials{Account: r.Account, Key: []byte("0123456789abcdef0123456789abcdef")}
		perm := map[string]string{"read": readPermissions, "write": writePermissions}[name]
		signed, _ := url.ParseQuery(roomSAS(creds, perm, now, now.Add(7*24*time.Hour)))
		got, err := url.ParseQuery(sas)
		if err != nil || got.Encode() != signed.Encode() {
			t.Errorf("the %s link's SAS reads as %v (%v), want %v", name, got, err, signed)
		}
	}
	// A value with the characters a query (or an SDK) misreads keeps them.
	if strings.Contains(r.ReadLink, "=%26") || !strings.Contains(shortQuery("sig=ab%3D"), "sig=ab%3D") {
		t.Error("an '=' inside a SAS value is not escaped")
	}
	if got, _ := url.ParseQuery(shortQuery("sig=a%2Bb%2Fc%3D%26d%25&sp=rl")); got.Get("sig") != "a+b/c=&d%" {
		t.Errorf("shortQuery lost a character: %q", got.Get("sig"))
	}
}
