//go:build unix

package room_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// transcriptRequests reads the requests of a golden transcript of
// core/rest (their recorded answers are that package's business).
func transcriptRequests(t *testing.T, file string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, chunk := range strings.Split(string(raw), "--- request\n")[1:] {
		req, _, ok := strings.Cut(chunk, "\n--- response\n")
		if !ok {
			t.Fatalf("%s: a request without its response", file)
		}
		out = append(out, req)
	}
	return out
}

// sendSigned sends a transcript's request text to the account at base
// (its account and host put in), signed with Shared Key Lite as an SDK
// signs, at the clock at; it renders the answer.
func sendSigned(t *testing.T, base, account string, creds rest.Credentials, text string, at time.Time, setClock bool) string {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	text = strings.ReplaceAll(strings.ReplaceAll(text, rest.WellKnownAccount, account), "127.0.0.1:10002", host)
	head, body, _ := strings.Cut(text, "\n\n")
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(strings.ReplaceAll(head, "\n", "\r\n") + "\r\n\r\n")))
	if err != nil {
		t.Fatalf("request %q: %v", head, err)
	}
	req.RequestURI = ""
	req.URL.Scheme, req.URL.Host, req.Host = "http", host, host
	req.Header.Del("Content-Length")
	req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
	if body == "" && req.Method != "POST" && req.Method != "PUT" && req.Method != "PATCH" && req.Method != "MERGE" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	date := at.UTC().Format(http.TimeFormat)
	req.Header.Set("X-Ms-Date", date)
	req.Header.Set("Authorization", creds.Sign(date, req.URL))
	if setClock {
		req.Header.Set("X-Tableplay-Room-Now", strconv.FormatInt(at.UnixMilli(), 10))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return render(req.Method+" "+req.URL.Path, resp, b)
}

// TestRoomTranscripts replays the requests of every golden transcript of
// core/rest, signed with the room's key, against a fresh room through
// workerd and against the native server with the same account, key and
// clock: the answers are the same byte for byte once host and ids are
// masked.
func TestRoomTranscripts(t *testing.T) {
	w := startWorkerd(t)
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "core", "rest", "testdata", "transcripts", "*.txt"))
	if err != nil || len(files) < 20 {
		t.Fatalf("transcripts: %d files, %v", len(files), err)
	}
	exchanges := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			r := w.mustRoom(nil)
			key, err := base64.StdEncoding.DecodeString(r.Key)
			if err != nil {
				t.Fatal(err)
			}
			creds := rest.Credentials{Account: r.Account, Key: key}
			at := time.Now().Truncate(time.Millisecond)
			native := serveNative(t, r.Account, r.Key, func() time.Time { return at })
			var room, nat []string
			for _, req := range transcriptRequests(t, file) {
				room = append(room, sendSigned(t, w.url(), r.Account, creds, req, at, true))
				nat = append(nat, sendSigned(t, native, r.Account, creds, req, at, false))
			}
			compareExchanges(t, room, nat, strings.TrimPrefix(w.url(), "http://"), strings.TrimPrefix(native, "http://"))
			exchanges += len(room)
			if bytes.Contains([]byte(strings.Join(room, "")), []byte("AuthenticationFailed")) {
				t.Error("a signed request was refused")
			}
		})
	}
	t.Logf("%d transcripts, %d exchanges the same through workerd as natively", len(files), exchanges)
}
