package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/h1"
	"github.com/tableplay/tableplay/core/rest"
)

// twinStart is the clock's start in the differential test: a SharedKey
// signature dated then is within the service's window.
var twinStart = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// twinConfig is a server configuration whose clock and request ids are
// sequences, so that two servers given the same requests answer the same
// bytes.
func twinConfig(web string, logs io.Writer) serverConfig {
	now, n := twinStart, 0
	var mu sync.Mutex
	return serverConfig{files: os.DirFS(web), addr: "127.0.0.1:0", allowAnonymous: true, log: log.New(logs, "", 0),
		clock: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			now = now.Add(time.Millisecond)
			return now
		},
		requestID: func() string {
			mu.Lock()
			defer mu.Unlock()
			n++
			return fmt.Sprintf("00000000-0000-0000-0000-%012d", n)
		}}
}

// twins runs the same server twice on loopback: as net/http alone served
// it before the front, and as main serves it now (the front, handing over
// to net/http). frontLog counts the requests the front answered itself.
type twins struct {
	plain, front       string
	plainLog, frontLog *lockedBuffer
	answered           *lockedBuffer
}

func startTwins(t *testing.T) *twins {
	t.Helper()
	web := t.TempDir()
	os.WriteFile(filepath.Join(web, "index.html"), []byte("<!doctype html><title>tableplay</title>"), 0o644)
	tw := &twins{plainLog: &lockedBuffer{}, frontLog: &lockedBuffer{}, answered: &lockedBuffer{}}
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	lnPlain, lnFront := listen(), listen()
	tw.plain, tw.front = lnPlain.Addr().String(), lnFront.Addr().String()
	plain := newHTTPServer(newServer(twinConfig(web, tw.plainLog)), defaultLimits)
	h := newHandlers(twinConfig(web, tw.frontLog))
	front := newFront(h.page, h.api, h.takes, defaultLimits)
	// Count the front's own answers apart from the access log's lines.
	front.Log = func(method, uri string, status int, d time.Duration) {
		fmt.Fprintf(tw.answered, "%s %s\n", method, uri)
	}
	go plain.Serve(lnPlain)
	go front.Serve(lnFront)
	t.Cleanup(func() { plain.Close(); front.Shutdown(t.Context()) })
	return tw
}

// exchange sends script on a new connection, half-closes it and returns
// every byte the server sent until it closed.
func exchange(t *testing.T, addr, script string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		io.WriteString(conn, script)
		conn.(*net.TCPConn).CloseWrite()
	}()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("reading the answers: %v", err)
	}
	return string(got)
}

// req writes a request as the SDKs do: Host, the fields given, a
// Content-Length when there is a body.
func req(method, target string, body string, fields ...string) string {
	var b strings.Builder
	b.WriteString(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:10002\r\n")
	for i := 0; i+1 < len(fields); i += 2 {
		b.WriteString(fields[i] + ": " + fields[i+1] + "\r\n")
	}
	if body != "" {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n" + body)
	return b.String()
}

// signed is req with a SharedKeyLite signature of the well-known key.
func signed(method, target, body string, fields ...string) string {
	u, _ := url.Parse("http://127.0.0.1:10002" + target)
	d := twinStart.Format(http.TimeFormat)
	return req(method, target, body, append(fields, "X-Ms-Date", d, "Authorization", rest.WellKnown().Sign(d, u))...)
}

const (
	jsonNo   = "application/json;odata=nometadata"
	jsonFull = "application/json;odata=fullmetadata"
)

// batchBody is a $batch of two inserts into People.
func batchBody() string {
	part := func(rk string) string {
		return "--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"POST http://127.0.0.1:10002/devstoreaccount1/People HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n" +
			"Content-Type: application/json\r\nPrefer: return-no-content\r\n\r\n" +
			`{"PartitionKey":"b","RowKey":"` + rk + `","N":1}` + "\r\n"
	}
	return "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n" + part("1") + part("2") +
		"--changeset_1--\r\n--batch_1--\r\n"
}

// masked hides what may differ between two correct answers: the Date of an
// answer net/http dates itself, and the duration in a log line.
var (
	dateField = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)
	// The time taken ends each access log line; the client's port begins it.
	logTime = regexp.MustCompile(`(?m)(^127\.0\.0\.1:[0-9]+ | [0-9.]+[µnm]?s$)`)
)

// TestFrontAnswersAsNetHTTP: every kind of request the SDKs send, and the
// ones the front hands over, sent as raw bytes on one connection each to
// the server as net/http alone ran it and to the front get the same bytes
// back (status lines, fields in order, bodies, closes), the same request
// log, and the answers expected; the front answers the SDKs' requests
// itself.
func TestFrontAnswersAsNetHTTP(t *testing.T) {
	tw := startTwins(t)
	entity := `{"PartitionKey":"p","RowKey":"r","Name":"Ada","Age":"36","Age@odata.type":"Edm.Int64"}`
	big := `{"PartitionKey":"p","RowKey":"big","Blob":"` + strings.Repeat("x", 500<<10) + `"}`
	inserts := ""
	for i := 0; i < 30; i++ {
		inserts += req("POST", "/devstoreaccount1/People", fmt.Sprintf(`{"PartitionKey":"pipe","RowKey":"%03d","Text":"%s"}`, i, strings.Repeat("t", 400+i*7)),
			"Accept", jsonNo, "Content-Type", "application/json", "Prefer", "return-no-content")
	}
	many := ""
	for i := 0; i < 40; i++ {
		many += req("GET", "/devstoreaccount1/People(PartitionKey='p',RowKey='r')", "", "Accept", jsonNo)
	}
	scripts := []struct {
		name     string
		script   string
		statuses []int
		front    int // answered by the front itself
	}{
		{"create table", req("POST", "/devstoreaccount1/Tables", `{"TableName":"People"}`, "Accept", jsonFull, "Content-Type", "application/json"), []int{201}, 1},
		{"create table again, then list", req("POST", "/devstoreaccount1/Tables", `{"TableName":"People"}`, "Accept", jsonNo, "Content-Type", "application/json") +
			req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{409, 200}, 2},
		{"insert, read, upsert, merge, delete", req("POST", "/devstoreaccount1/People", entity, "Accept", jsonFull, "Content-Type", "application/json") +
			req("GET", "/devstoreaccount1/People(PartitionKey='p',RowKey='r')", "", "Accept", jsonFull) +
			req("PUT", "/devstoreaccount1/People(PartitionKey='p',RowKey='u')", `{"A":1}`, "Content-Type", "application/json") +
			req("MERGE", "/devstoreaccount1/People(PartitionKey='p',RowKey='u')", `{"B":"two"}`, "Content-Type", "application/json", "If-Match", "*") +
			req("PUT", "/devstoreaccount1/People(PartitionKey='p',RowKey='u')", `{"C":3}`, "Content-Type", "application/json", "If-Match", `W/"datetime'2001-01-01T00%3A00%3A00Z'"`) +
			req("DELETE", "/devstoreaccount1/People(PartitionKey='p',RowKey='u')", "", "If-Match", "*") +
			req("DELETE", "/devstoreaccount1/People(PartitionKey='p',RowKey='u')", "", "If-Match", "*"),
			[]int{201, 200, 204, 204, 412, 204, 404}, 7},
		{"lower-case field names, odd blanks, Node style", "POST /devstoreaccount1/People HTTP/1.1\r\nhost: localhost:10002\r\naccept:application/json;odata=minimalmetadata\r\ncontent-type:  application/json  \r\nx-ms-client-request-id: abc\r\nx-ms-version: 2019-02-02\r\ncontent-length: 32\r\n\r\n" + `{"PartitionKey":"n","RowKey":"1"}`[:32],
			[]int{400}, 1},
		{"query with continuation", req("GET", "/devstoreaccount1/People()?$filter=PartitionKey%20eq%20'p'&$top=1", "", "Accept", jsonNo) +
			req("GET", "/devstoreaccount1/People()?$top=1&NextPartitionKey=1!4!cA--&NextRowKey=1!4!cg--", "", "Accept", jsonNo) +
			req("GET", "/devstoreaccount1/People()?$filter=Age%20gt", "", "Accept", jsonNo),
			[]int{200, 200, 400}, 3},
		{"batch", req("POST", "/devstoreaccount1/$batch", batchBody(), "Accept", jsonNo, "Content-Type", "multipart/mixed; boundary=batch_1", "DataServiceVersion", "3.0"), []int{202}, 1},
		{"signed, bad signature, XML endpoints", signed("GET", "/devstoreaccount1/People?comp=acl", "") +
			req("GET", "/devstoreaccount1/Tables", "", "Authorization", "SharedKeyLite devstoreaccount1:AAAA", "X-Ms-Date", twinStart.Format(http.TimeFormat)) +
			signed("GET", "/devstoreaccount1/?restype=service&comp=properties", "") +
			req("PUT", "/devstoreaccount1/?restype=service&comp=properties", "<StorageServiceProperties></StorageServiceProperties>", "Content-Type", "application/xml") +
			req("GET", "/devstoreaccount1-secondary/?restype=service&comp=stats", "") +
			req("OPTIONS", "/devstoreaccount1/Tables", "", "Origin", "http://example.com", "Access-Control-Request-Method", "GET"),
			[]int{200, 403, 200, 403, 200, 403}, 6},
		{"errors, unknown paths, HEAD", req("GET", "/devstoreaccount1/Missing()", "", "Accept", jsonNo) +
			req("POST", "/devstoreaccount1/People", `{"PartitionKey":`, "Accept", jsonNo, "Content-Type", "application/json") +
			req("GET", "/devstoreaccount1", "") + req("GET", "/devstoreaccount1-secondary", "") +
			req("HEAD", "/devstoreaccount1/Tables", "", "Accept", jsonNo),
			[]int{404, 400, 400, 400, 405}, 5},
		{"another account: handed over", req("GET", "/otheraccount/Tables", "", "Accept", jsonNo), []int{404}, 0},
		{"bad Host", strings.Replace(req("GET", "/devstoreaccount1/Tables", ""), "127.0.0.1:10002", "evil.example", 1) + req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{403, 200}, 2},
		{"keep-alive, pipelined", many, repeat(200, 40), 40},
		{"pipelined inserts across the read buffer's end", inserts + req("GET", "/devstoreaccount1/People()?$filter=PartitionKey%20eq%20'pipe'&$select=RowKey", "", "Accept", jsonNo),
			append(repeat(204, 30), 200), 31},
		{"Connection: close ends the connection", req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo, "Connection", "close") + req("GET", "/devstoreaccount1/Tables", ""), []int{200}, 1},
		{"a CR LF after a POST", req("POST", "/devstoreaccount1/Tables", `{"TableName":"Second"}`, "Accept", jsonNo, "Content-Type", "application/json") + "\r\n" + req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{201, 200}, 2},
		{"a large entity body, then more on the same connection", req("POST", "/devstoreaccount1/People", big, "Accept", jsonNo, "Content-Type", "application/json", "Prefer", "return-no-content") +
			req("POST", "/devstoreaccount1/People", `{"PartitionKey":"p","RowKey":"after"}`, "Accept", jsonNo, "Content-Type", "application/json") +
			req("GET", "/devstoreaccount1/People(PartitionKey='p',RowKey='after')", "", "Accept", jsonNo), []int{400, 201, 200}, 3},
		{"a large body left unread closes", req("POST", "/devstoreaccount1/Tables", big, "Content-Type", "application/json", "Authorization", "SharedKey devstoreaccount1:AAAA", "X-Ms-Date", twinStart.Format(http.TimeFormat)) + req("GET", "/devstoreaccount1/Tables", ""), []int{403}, 1},
		{"a body refused on its head is read past", req("POST", "/devstoreaccount1/Tables", big[:100<<10], "Content-Type", "application/json", "Authorization", "SharedKey devstoreaccount1:AAAA", "X-Ms-Date", twinStart.Format(http.TimeFormat)) +
			req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{403, 200}, 2},
		{"a bad Host with a body", strings.Replace(req("POST", "/devstoreaccount1/Tables", big[:100<<10], "Content-Type", "application/json"), "127.0.0.1:10002", "evil.example", 1) +
			req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{403, 200}, 2},
		{"a declared 4 MiB body refused on its head closes", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Length: 4194304\r\n\r\n" + big[:9000], []int{403}, 1},
		{"a body over the limit", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 4194305\r\n\r\n{}", []int{413}, 0},
		{"a body cut short", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"TableName\"", []int{400}, 0},
		{"chunked: handed over", req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo) +
			"POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n15\r\n{\"TableName\":\"Third\"}\r\n0\r\n\r\n" +
			req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{200, 201, 200}, 1},
		{"a file mid-connection: handed over", req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo) + req("GET", "/", "") + req("GET", "/index.html", "") +
			req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo), []int{200, 200, 200, 200}, 1},
		{"Expect: handed over", req("POST", "/devstoreaccount1/Tables", `{"TableName":"Fourth"}`, "Accept", jsonNo, "Content-Type", "application/json", "Expect", "100-continue"), []int{100, 201}, 0},
		{"HTTP/1.0: handed over", "GET /devstoreaccount1/Tables HTTP/1.0\r\nHost: localhost\r\nAccept: application/json;odata=nometadata\r\n\r\n", []int{200}, 0},
		{"absolute target, unclean path: handed over", "GET http://127.0.0.1:10002/devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nAccept: application/json;odata=nometadata\r\n\r\n" +
			req("GET", "/devstoreaccount1/../devstoreaccount1/Tables", ""), []int{200, 307}, 0},
		{"malformed: handed over", req("GET", "/devstoreaccount1/Tables", "", "Accept", jsonNo) + "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: x\r\n\r\n", []int{200, 400}, 1},
		{"no Host, two Hosts: handed over", "GET /devstoreaccount1/Tables HTTP/1.1\r\n\r\n", []int{400}, 0},
		{"two Hosts", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", []int{400}, 0},
		{"a header block over 64 KiB", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: " + strings.Repeat("a", 80<<10) + "\r\n\r\n", []int{431}, 0},
		{"a header block under 64 KiB", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json;odata=nometadata\r\nX-Filler: " + strings.Repeat("a", 60<<10) + "\r\n\r\n", []int{200}, 1},
		{"cut off mid-header", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAcc", []int{400}, 0},
	}
	for _, s := range scripts {
		before := strings.Count(tw.answered.String(), "\n")
		a, b := exchange(t, tw.plain, s.script), exchange(t, tw.front, s.script)
		if dateField.ReplaceAllString(a, "Date: *\r") != dateField.ReplaceAllString(b, "Date: *\r") {
			t.Errorf("%s: net/http answered\n%s\nthe front answered\n%s", s.name, clip(a), clip(b))
		}
		got := statuses(b)
		if fmt.Sprint(got) != fmt.Sprint(s.statuses) {
			t.Errorf("%s: statuses %v, want %v\n%s", s.name, got, s.statuses, clip(b))
		}
		if n := strings.Count(tw.answered.String(), "\n") - before; n != s.front {
			t.Errorf("%s: the front answered %d requests itself, want %d", s.name, n, s.front)
		}
	}
	if a, b := logTime.ReplaceAllString(tw.plainLog.String(), ""), logTime.ReplaceAllString(tw.frontLog.String(), ""); a != b || a == "" {
		t.Errorf("request logs differ:\nnet/http\n%s\nfront\n%s", a, b)
	}
}

// statuses returns the status of each answer in a connection's bytes, read
// as answers to GET (a HEAD is last in its script).
func statuses(raw string) []int {
	var out []int
	br := bufio.NewReader(strings.NewReader(raw))
	for {
		resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
		if err != nil {
			return out
		}
		out = append(out, resp.StatusCode)
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return out
		}
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// clip shortens an answer for a failure message.
func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// TestFrontShutsDownGracefully: Shutdown lets a request being answered
// finish, closes idle connections at once, and returns.
func TestFrontShutsDownGracefully(t *testing.T) {
	release := make(chan struct{})
	slow := restFunc(func(w rest.ResponseWriter, h rest.Header, r rest.Request) {
		<-release
		h.Set("Content-Length", "2")
		w.WriteHeader(200)
		w.Write([]byte("ok"))
	})
	f := &h1.Server{API: slow, Takes: newAccounts(nil, []string{rest.WellKnownAccount}, nil).byPath, Fallback: newHTTPServer(http.NotFoundHandler(), defaultLimits)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- f.Serve(ln) }()
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	busy, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	io.WriteString(busy, req("GET", "/devstoreaccount1/Tables", ""))
	time.Sleep(100 * time.Millisecond) // the request reaches the handler
	done := make(chan error, 1)
	go func() { done <- f.Shutdown(t.Context()) }()
	if !closedWithin(idle, 2*time.Second) {
		t.Error("an idle connection stayed open during shutdown")
	}
	select {
	case err := <-done:
		t.Fatalf("Shutdown returned before the request finished: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	busy.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, _ := io.ReadAll(busy)
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 200 OK\r\n")) || !bytes.HasSuffix(got, []byte("\r\n\r\nok")) {
		t.Errorf("the request in flight got %q", got)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown did not return")
	}
	if err := <-served; err != h1.ErrServerClosed {
		t.Errorf("Serve returned %v", err)
	}
}

// restFunc is a rest.Server made of a function.
type restFunc func(w rest.ResponseWriter, h rest.Header, r rest.Request)

func (f restFunc) Handle(w rest.ResponseWriter, h rest.Header, r rest.Request) { f(w, h, r) }

// TestFrontHostileRequestsAsNetHTTP: requests built to be read two ways
// (two lengths, a length beside chunking, folded or blank-prefixed fields,
// control bytes in values, odd request lines, dot segments and escapes in
// the path, odd Host values, bare line feeds, stray blank lines) get the
// same bytes back from the front as from net/http alone: whichever of the
// two reads them, they are read one way.
func TestFrontHostileRequestsAsNetHTTP(t *testing.T) {
	tw := startTwins(t)
	g := func(target string, fields string) string {
		return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nAccept: application/json;odata=nometadata\r\n" + fields + "\r\n"
	}
	post := func(fields, body string) string {
		return "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1:10002\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\n" + fields + "\r\n" + body
	}
	tbl := `{"TableName":"Probe"}`
	cases := []string{
		post("Content-Length: 21\r\nContent-Length: 21\r\n", tbl),
		post("Content-Length: 21\r\nContent-Length: 5\r\n", tbl),
		post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "15\r\n"+tbl+"\r\n0\r\n\r\n"),
		post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "15\r\n"+tbl+"\r\n0\r\n\r\n"),
		post("Content-Length: +21\r\n", tbl),
		post("Content-Length: -1\r\n", tbl),
		post("Content-Length: 0x15\r\n", tbl),
		post("Content-Length: 021\r\n", tbl),
		post("Content-Length:21\r\n", tbl),
		post("Content-Length : 21\r\n", tbl),
		post("Content-Length: 21, 21\r\n", tbl),
		post("Content-Length: 0000000000000000000021\r\n", tbl),
		g("/devstoreaccount1/Tables", "X-A: a\r\n b\r\n"),
		g("/devstoreaccount1/Tables", " X-A: a\r\n"),
		g("/devstoreaccount1/Tables", "X-A: a\x00b\r\n"),
		g("/devstoreaccount1/Tables", "X-A: a\rb\r\n"),
		g("/devstoreaccount1/Tables", "X-A: a\x7fb\r\n"),
		g("/devstoreaccount1/Tables", "X-A: a\xffb\r\n"),
		g("/devstoreaccount1/Tables", "X-A\r\n"),
		g("/devstoreaccount1/Tables", ": a\r\n"),
		g("/devstoreaccount1/Tables", "X_A: a\r\n"),
		g("/devstoreaccount1/Tables", "Connection: keep-alive, close\r\n"),
		g("/devstoreaccount1/Tables", "Connection: Keep-Alive\r\nConnection: CLOSE\r\n"),
		g("/devstoreaccount1/Tables", "Pragma: no-cache\r\n"),
		g("/devstoreaccount1/Tables", "Upgrade: h2c\r\nConnection: Upgrade\r\n"),
		g("/devstoreaccount1/%2e%2e/devstoreaccount1/Tables", ""),
		g("/devstoreaccount1/./Tables", ""),
		g("//devstoreaccount1/Tables", ""),
		g("/devstoreaccount1/Tables?x=%zz", ""),
		g("/devstoreaccount1/Tab%6Ces", ""),
		g("/devstoreaccount%31/Tables", ""),
		g("/devstoreaccount1/Tables?$top=1#frag", ""),
		g("/devstoreaccount1/Tables\xc3\xa9", ""),
		g("/devstoreaccount1/Tables/", ""),
		g("/devstoreaccount1//Tables", ""),
		g("/devstoreaccount1/Tables/..", ""),
		g("/devstoreaccount1/Tables%2F..%2F..", ""),
		"get /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET  /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables  HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1 \r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables http/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\nHost: 127.0.0.1\n\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\n\r\n",
		"\r\nGET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: LOCALHOST\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost.\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: [::1]:10002\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1:abc\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: u@localhost\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: localhost:10002:1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: [::1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: \r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n",
		"DELETE /devstoreaccount1/Tables('x') HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc",
		"HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nab",
		"OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"TRACE /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"PATCH /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n\r\n\r\nGET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc\n\nGET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nIf-None-Match: *\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json;odata=nometadata\r\nAccept-Encoding: gzip\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nTrailer: X\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nTe: trailers\r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: \r\n\r\n",
		"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: identity\r\n\r\n",
	}
	for i, c := range cases {
		a, b := exchange(t, tw.plain, c), exchange(t, tw.front, c)
		if a == "" || dateField.ReplaceAllString(a, "Date: *\r") != dateField.ReplaceAllString(b, "Date: *\r") {
			t.Errorf("request %d %q:\nnet/http answered\n%s\nthe front answered\n%s", i, c, clip(a), clip(b))
		}
	}
}
