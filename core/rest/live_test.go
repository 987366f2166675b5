package rest_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// liveRecordings is how many recorded exchanges testdata/live holds (378,
// from 117 SDK tests); TestLiveRecordings fails if a file goes missing.
const liveRecordings = 378

// The live service is host-style; replayed path-style, {base} is this.
const (
	liveHost = "127.0.0.1:10002"
	liveBase = "http://" + liveHost + "/" + rest.WellKnownAccount
)

// liveHeaders are the response headers the recordings kept: each must be
// sent exactly when the service sent it. x-ms-error-code is checked only
// where recorded (most recorders dropped it).
var liveHeaders = []string{"Content-Type", "ETag", "Location", "Preference-Applied", "DataServiceId",
	"x-ms-continuation-NextTableName", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey"}

// liveFile is one recorded test: its header, synthetic setup requests and
// exchanges, as scripts/liverecordings writes them.
type liveFile struct {
	header    string
	testProxy bool // the azure-sdk-tools test proxy recorded it (see liveMediaType)
	setup     []liveMessage
	exchanges [][2]liveMessage
}

// liveMessage is a request (method and path set) or a response (status set).
type liveMessage struct {
	method, path, auth string
	status             int
	headers            [][2]string
	body               string
}

func (m liveMessage) header(name string) (string, bool) {
	for _, h := range m.headers {
		if strings.EqualFold(h[0], name) {
			return h[1], true
		}
	}
	return "", false
}

// parseLiveFile reads the format of scripts/liverecordings: "# " header
// lines, then blocks under "--- setup", "--- request[ auth=…]" and
// "--- response STATUS" lines, each body followed by one newline.
func parseLiveFile(text string) (liveFile, error) {
	var f liveFile
	first := strings.Index(text, "\n--- ")
	if first < 0 || !strings.HasPrefix(text, "# live: ") || !strings.Contains(text[:first], "\n# origin: ") {
		return f, fmt.Errorf("a live recording starts with \"# live:\" and \"# origin:\" lines")
	}
	f.header = text[:first+1]
	f.testProxy = strings.Contains(f.header, "\n# recorder: azure-sdk-tools test-proxy")
	blocks := strings.Split(strings.TrimSuffix(text[first:], "\n"), "\n--- ")[1:]
	var pending *liveMessage
	for _, b := range blocks {
		marker, content, _ := strings.Cut(b, "\n")
		var m liveMessage
		kind, arg, _ := strings.Cut(marker, " ")
		if kind != "response" {
			start, rest, _ := strings.Cut(content, "\n")
			m.method, m.path, _ = strings.Cut(start, " ")
			content = rest
			m.auth = strings.TrimPrefix(arg, "auth=")
		} else if _, err := fmt.Sscanf(arg, "%d", &m.status); err != nil {
			return f, fmt.Errorf("marker %q", marker)
		}
		for {
			line, rest, ok := strings.Cut(content, "\n")
			if !ok {
				return f, fmt.Errorf("block %q has no empty line after its headers", marker)
			}
			content = rest
			if line == "" {
				break
			}
			k, v, _ := strings.Cut(line, ": ")
			m.headers = append(m.headers, [2]string{k, v})
		}
		m.body = content
		switch {
		case kind == "setup" && pending == nil && len(f.exchanges) == 0:
			f.setup = append(f.setup, m)
		case kind == "request" && pending == nil:
			pending = &m
		case kind == "response" && pending != nil:
			f.exchanges = append(f.exchanges, [2]liveMessage{*pending, m})
			pending = nil
		default:
			return f, fmt.Errorf("block %q out of order", marker)
		}
	}
	if pending != nil {
		return f, fmt.Errorf("a request without a response")
	}
	return f, nil
}

// TestLiveRecordings replays every exchange recorded from the live service
// (testdata/live, converted by scripts/liverecordings from the SDK suites'
// recordings named in each file's header) against a fresh account under the
// default profile, and compares the status, the headers the recordings kept
// and the body bytes, after the masking liveMask states.
func TestLiveRecordings(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "live", "*", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	total, same := 0, 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parseLiveFile(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		total += len(f.exchanges)
		name := filepath.Base(filepath.Dir(file)) + "/" + strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			same += replayLive(t, f)
		})
	}
	if total != liveRecordings {
		t.Errorf("testdata/live holds %d exchanges, want %d", total, liveRecordings)
	}
	t.Logf("%d/%d recorded exchanges answered as the live service did", same, total)
}

// liveServer is a fresh account whose clock advances a millisecond a
// call, so that every write gets its own Timestamp and ETag.
type liveServer struct {
	h   http.Handler
	now time.Time
}

func newLiveServer() *liveServer {
	s := &liveServer{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	clock := func() time.Time {
		s.now = s.now.Add(time.Millisecond)
		return s.now
	}
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	creds.TrustUnsigned = true // the recorded requests were signed or carried a SAS; neither is replayed
	s.h = resthttp.New(rest.New(rest.Options{Store: store.New(store.Options{Clock: clock}), Credentials: creds, Clock: clock}))
	return s
}

// do sends one recorded request, its {base} and {account} placeholders
// filled in and the recorded ETags swapped for the ones this server gave.
func (s *liveServer) do(t *testing.T, m liveMessage, etags map[string]string) *http.Response {
	t.Helper()
	fill := func(v string) string {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "{base}", liveBase), "{account}", rest.WellKnownAccount)
		return liveETagTime.ReplaceAllStringFunc(v, func(e string) string {
			if got, ok := etags[e]; ok {
				return got
			}
			return e
		})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s /%s%s HTTP/1.1\r\nHost: %s\r\n", m.method, rest.WellKnownAccount, strings.ReplaceAll(m.path, " ", "%20"), liveHost)
	for _, h := range m.headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], fill(h[1]))
	}
	if m.auth == "bad-signature" {
		// A well-formed Shared Key signature made with another key.
		fmt.Fprintf(&b, "x-ms-date: %s\r\nAuthorization: SharedKey %s:%s\r\n", s.now.Format(http.TimeFormat), rest.WellKnownAccount,
			base64.StdEncoding.EncodeToString(make([]byte, 32)))
	}
	body := fill(m.body)
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(b.String())))
	if err != nil {
		t.Fatalf("%s %s: %v", m.method, m.path, err)
	}
	req.RequestURI = ""
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec.Result()
}

var (
	// liveETagTime is the time inside an ETag (and in odata.etag, and in
	// the ETag lines of a batch answer).
	liveETagTime = regexp.MustCompile(`datetime'[^']*'`)
	liveMasks    = []struct {
		re   *regexp.Regexp
		with string
	}{
		{liveETagTime, "datetime'…'"},
		{regexp.MustCompile(`"Timestamp":"[^"]*"`), `"Timestamp":"…"`},
		{regexp.MustCompile(`RequestId:[0-9a-fA-F-]+\\nTime:[0-9T:.Z-]+`), `RequestId:…\nTime:…`},
		{regexp.MustCompile(`(batchresponse|changesetresponse)_[0-9a-fA-F-]+`), "${1}_…"},
		{regexp.MustCompile(`<LastSyncTime>[^<]*</LastSyncTime>`), "<LastSyncTime>…</LastSyncTime>"},
	}
)

// liveMask hides what differs between any two runs of the service: the
// times in Timestamps and ETags, request ids and times in error messages,
// batch answer boundaries, the last sync time; and writes the recordings'
// {base} and {account} as this server's.
func liveMask(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "{base}", liveBase), "{account}", rest.WellKnownAccount)
	for _, m := range liveMasks {
		s = m.re.ReplaceAllString(s, m.with)
	}
	return s
}

// liveMediaType undoes the test proxy's rewrite of Content-Type (a space
// after each ';', which the service does not send: the multipart bodies'
// own Content-Type lines show it); a multipart type keeps its space.
func liveMediaType(v string, testProxy bool) string {
	if !testProxy || strings.HasPrefix(v, "multipart/") {
		return v
	}
	return strings.ReplaceAll(v, "; ", ";")
}

// liveTableToken hides the 16 hex digits a NextTableName token carries
// after the table's name: they change with the table's creation (as a
// Timestamp does), the name does not.
func liveTableToken(v string) string {
	if name := liveTokenName(v); name != "" {
		n, _, _ := strings.Cut(v, "!")
		return n + "!" + name + "\x01…"
	}
	return v
}

// liveTokenName is the (lower-cased) table name a NextTableName token
// names, or "".
func liveTokenName(v string) string {
	parts := strings.SplitN(v, "!", 3)
	if len(parts) != 3 {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(parts[2], "-", "="))
	name, hex, ok := strings.Cut(string(raw), "\x01")
	if err != nil || !ok || len(hex) != 16 {
		return ""
	}
	return name
}

// liveProxyEscape is a \u escape of a character beyond ASCII (or a
// surrogate pair of them).
var liveProxyEscape = regexp.MustCompile(`(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u00[89a-fA-F][0-9a-fA-F]|\\u0[1-9a-fA-F][0-9a-fA-F]{2}|\\u[1-9a-fA-F][0-9a-fA-F]{3})`)

// liveProxyText writes the \u escapes of characters beyond ASCII as the
// characters, as the test proxy's re-serialization of a JSON body keeps
// them (the service escapes them, F-JSON-NON-ASCII).
func liveProxyText(s string) string {
	return liveProxyEscape.ReplaceAllStringFunc(s, func(e string) string {
		var r string
		if err := json.Unmarshal([]byte(`"`+e+`"`), &r); err != nil {
			return e
		}
		return r
	})
}

// replayLive replays one recorded test and returns how many of its
// exchanges matched.
func replayLive(t *testing.T, f liveFile) int {
	s := newLiveServer()
	for _, name := range liveUsedTables(f) {
		r := s.do(t, liveMessage{method: "POST", path: "/Tables", headers: [][2]string{{"Accept", "application/json;odata=nometadata"}, {"Content-Type", "application/json"}},
			body: fmt.Sprintf(`{"TableName":%q}`, name)}, nil)
		r.Body.Close()
		if r.StatusCode != http.StatusCreated {
			t.Fatalf("creating the recorded account's table %q: %d", name, r.StatusCode)
		}
	}
	for _, m := range f.setup {
		s.do(t, m, nil).Body.Close()
	}
	// A token naming a table the recorded account was deleting cannot be
	// reproduced (tableplay deletes at once); it is compared by presence.
	_, deleting := liveListings(f)
	for _, ex := range f.exchanges {
		if w, ok := ex[1].header("x-ms-continuation-NextTableName"); ok && deleting[liveTokenName(w)] {
			t.Logf("%s %s: its NextTableName names %q, which the recorded account was deleting; compared by presence", ex[0].method, ex[0].path, liveTokenName(w))
		}
	}
	etags := map[string]string{}
	same := 0
	for i, ex := range f.exchanges {
		req, want := ex[0], ex[1]
		r := s.do(t, req, etags)
		gotBody, _ := io.ReadAll(r.Body)
		r.Body.Close()
		var diffs []string
		if r.StatusCode != want.status {
			diffs = append(diffs, fmt.Sprintf("status %d, want %d", r.StatusCode, want.status))
		}
		checked := append([]string{}, liveHeaders...)
		if _, ok := want.header("x-ms-error-code"); ok {
			checked = append(checked, "x-ms-error-code")
		}
		for _, name := range checked {
			w, wok := want.header(name)
			g, gok := r.Header.Get(name), len(r.Header.Values(name)) > 0
			switch {
			case wok != gok:
				diffs = append(diffs, fmt.Sprintf("%s: sent %v (%q), the service %v (%q)", name, gok, g, wok, w))
			case !wok || w == "<sanitized>":
			case name == "Content-Type" && liveMask(liveMediaType(w, f.testProxy)) != liveMask(g),
				name == "x-ms-continuation-NextTableName" && !deleting[liveTokenName(w)] && liveTableToken(w) != liveTableToken(g),
				name != "Content-Type" && name != "x-ms-continuation-NextTableName" && liveMask(w) != liveMask(g):
				diffs = append(diffs, fmt.Sprintf("%s: %q, want %q", name, g, w))
			}
		}
		if f.testProxy {
			gotBody = []byte(liveProxyText(string(gotBody)))
		}
		if liveMask(string(gotBody)) != liveMask(want.body) {
			diffs = append(diffs, fmt.Sprintf("body\n got %s\nwant %s", liveMask(string(gotBody)), liveMask(want.body)))
		}
		// Later requests name the ETags this server gave where the
		// recording names the service's.
		wantTags := liveETagTime.FindAllString(fmt.Sprint(want.headers)+want.body, -1)
		gotTags := liveETagTime.FindAllString(r.Header.Get("ETag")+string(gotBody), -1)
		if len(wantTags) == len(gotTags) {
			for k := range wantTags {
				etags[wantTags[k]] = gotTags[k]
			}
		}
		if len(diffs) > 0 {
			t.Errorf("exchange %d, %s %s:\n%s", i+1, req.method, req.path, strings.Join(diffs, "\n"))
			continue
		}
		same++
	}
	return same
}

// liveTableRef is a table named at the start of a request path, or of a
// sub-request line in a $batch body.
var (
	liveTableRef    = regexp.MustCompile(`^/([A-Za-z][A-Za-z0-9]*)(?:\(|\?|$)`)
	liveBatchRef    = regexp.MustCompile(`(?m)^[A-Z]+ (?:\{base\})?/([A-Za-z][A-Za-z0-9]*)[(? ]`)
	liveCreatedName = regexp.MustCompile(`"TableName": ?"([^"]*)"`)
	liveListedName  = regexp.MustCompile(`"TableName":"([^"]*)"`)
)

// liveUsedTables lists the tables a recording uses that it neither creates
// (in setup or an exchange) before first use nor expects to be missing (a
// TableNotFound answer): the recorded account held them, so the replay
// creates them first.
func liveUsedTables(f liveFile) []string {
	listed, _ := liveListings(f)
	created := map[string]bool{"Tables": true}
	var out []string
	consider := func(m liveMessage, resp *liveMessage) {
		if m.method == "POST" && strings.HasPrefix(m.path, "/Tables") {
			if n := liveCreatedName.FindStringSubmatch(m.body); n != nil {
				created[n[1]] = true
			}
			return
		}
		var refs []string
		if ref := liveTableRef.FindStringSubmatch(m.path); ref != nil {
			refs = append(refs, ref[1])
		}
		if strings.HasPrefix(m.path, "/$batch") {
			for _, ref := range liveBatchRef.FindAllStringSubmatch(m.body, -1) {
				refs = append(refs, ref[1])
			}
		}
		for _, name := range refs {
			if created[name] {
				continue
			}
			created[name] = true
			if resp == nil || !strings.Contains(resp.body, "TableNotFound") {
				out = append(out, name)
			}
		}
	}
	for _, m := range f.setup {
		consider(m, nil)
	}
	for _, ex := range f.exchanges {
		consider(ex[0], &ex[1])
	}
	for _, n := range listed {
		if !created[n] {
			created[n] = true
			out = append(out, n)
		}
	}
	return out
}

// liveListings reads a recording's table listings for the tables the
// recorded account held that the test never creates: those listed, and
// those a NextTableName token names. A token naming a table that the page
// it starts does not show named a table the account was deleting then
// (deleted tables stay in the service's index for a while, and its pages
// end at any name in it); deleting lists those.
func liveListings(f liveFile) (listed []string, deleting map[string]bool) {
	made := map[string]bool{}
	for _, m := range append(append([]liveMessage{}, f.setup...), liveRequests(f)...) {
		if n := liveCreatedName.FindStringSubmatch(m.body); n != nil && m.method == "POST" && strings.HasPrefix(m.path, "/Tables") {
			made[strings.ToLower(n[1])] = true
		}
	}
	deleting = map[string]bool{}
	seen := map[string]bool{}
	var tokens []string
	for _, ex := range f.exchanges {
		if ex[0].method != "GET" || !strings.HasPrefix(ex[0].path, "/Tables") {
			continue
		}
		page := liveListedName.FindAllStringSubmatch(ex[1].body, -1)
		for _, n := range page {
			if key := strings.ToLower(n[1]); !made[key] && !seen[key] {
				seen[key] = true
				listed = append(listed, n[1])
			}
		}
		if at := liveQueryToken(ex[0].path); at != "" && ex[1].status == http.StatusOK && (len(page) == 0 || strings.ToLower(page[0][1]) != at) {
			deleting[at] = true
		}
		if token, ok := ex[1].header("x-ms-continuation-NextTableName"); ok {
			tokens = append(tokens, liveTokenName(token))
		}
	}
	for _, n := range tokens {
		if n != "" && !made[n] && !seen[n] && !deleting[n] {
			seen[n] = true
			listed = append(listed, n)
		}
	}
	return listed, deleting
}

// liveQueryToken is the table name a request's NextTableName parameter
// names, or "".
func liveQueryToken(path string) string {
	_, query, _ := strings.Cut(path, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return ""
	}
	return liveTokenName(q.Get("NextTableName"))
}

// liveRequests lists a recording's requests.
func liveRequests(f liveFile) []liveMessage {
	var out []liveMessage
	for _, ex := range f.exchanges {
		out = append(out, ex[0])
	}
	return out
}
