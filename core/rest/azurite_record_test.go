package rest_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// recordAzurite names Azurite's table-service script; with it,
// TestRecordAzurite rewrites testdata/azurite (make record-azurite). make test
// never sets it: replaying the recordings needs no Azurite.
var recordAzurite = flag.String("record-azurite", "", "Azurite's table-service main.js: record testdata/azurite from it (make record-azurite)")

// azuriteVersion is the Azurite the recordings come from (cmd/perf/azurite
// pins it).
const azuriteVersion = "3.37.0"

// azuriteFlags are the options Azurite runs with: in memory, and the
// --loose and --skipApiVersionCheck most SDK users need to get newer
// x-ms-version values and headers past it.
var azuriteFlags = []string{"--inMemoryPersistence", "--skipApiVersionCheck", "--loose", "--silent", "--disableTelemetry", "--disableProductStyleUrl"}

// recordCommand regenerates testdata/azurite.
const recordCommand = "make record-azurite"

// TestRecordAzurite sends the requests of every transcript azuriteTranscripts
// lists, in order, to a fresh Azurite each, and writes its
// answers, masked (azurite_mask_test.go), to testdata/azurite.
func TestRecordAzurite(t *testing.T) {
	if *recordAzurite == "" {
		t.Skip("records only with -record-azurite (make record-azurite)")
	}
	for _, name := range azuriteTranscripts {
		raw, err := os.ReadFile(filepath.Join("testdata", "transcripts", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		_, exchanges := parseTranscript(t, string(raw))
		text, err := recordOne(name, exchanges)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "azurite", name+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// azuriteHeader is the first lines of every recording.
func azuriteHeader(name string) string {
	return "# azurite: Azurite " + azuriteVersion + " (table service, " + strings.Join(azuriteFlags, " ") + ") answering the requests of transcripts/" + name + ".txt. NOT evidence about Azure: what the emulator does, for the azurite-3.37 profile. Regenerate with `" + recordCommand + "`.\n" +
		"# masked: the framing header fields (Connection, Content-Length, Keep-Alive, Transfer-Encoding) are left out; times within the recording's run are the replay's fixed clock in Azurite's own format; request ids and $batch boundaries are numbered in order of first appearance (on both sides); requests were signed (SharedKeyLite, x-ms-date) when sent and are written as the transcript has them\n"
}

// recordOne replays one transcript's requests against a fresh Azurite.
func recordOne(name string, exchanges []exchangeText) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	addr, stop, err := startAzuriteTable(ctx, *recordAzurite)
	if err != nil {
		return "", err
	}
	defer stop()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var b strings.Builder
	b.WriteString(azuriteHeader(name))
	seen := map[string]string{}
	from := time.Now().Add(-time.Minute)
	var out []string
	for _, ex := range exchanges {
		resp, err := sendToAzurite(client, addr, ex.request)
		if err != nil {
			return "", err
		}
		out = append(out, resp)
	}
	to := time.Now().Add(time.Minute)
	for i, ex := range exchanges {
		resp := maskIDs(maskTimes(maskFraming(out[i]), from, to, replayClock), seen)
		b.WriteString(reqMarker + ex.request + "\n" + respMarker + resp + "\n")
	}
	return b.String(), nil
}

// sendToAzurite sends a transcript request to Azurite as Host
// 127.0.0.1:10002 (so the URLs it answers match the replay's), signed, and
// renders the answer as the replay does.
func sendToAzurite(client *http.Client, addr, reqText string) (string, error) {
	head, body, _ := strings.Cut(reqText, "\n\n")
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(strings.ReplaceAll(head, "\n", "\r\n") + "\r\n\r\n")))
	if err != nil {
		return "", err
	}
	u, err := url.Parse("http://" + addr + req.RequestURI)
	if err != nil {
		return "", err
	}
	out, err := http.NewRequest(req.Method, u.String(), strings.NewReader(body))
	if err != nil {
		return "", err
	}
	out.Header = req.Header
	out.Host = "127.0.0.1:10002"
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = []string{""} // Go's default would be sent otherwise
	}
	if out.Header.Get("Authorization") == "" {
		date := time.Now().UTC().Format(http.TimeFormat)
		out.Header.Set("x-ms-date", date)
		out.Header.Set("Authorization", rest.WellKnown().Sign(date, u))
	}
	resp, err := client.Do(out)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return renderResponse(resp), nil
}

// startAzuriteTable runs Azurite's table service in memory on a free
// loopback port and waits until it listens.
func startAzuriteTable(ctx context.Context, script string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	work, err := os.MkdirTemp("", "record-azurite")
	if err != nil {
		return "", nil, err
	}
	args := append([]string{script, "--tableHost", "127.0.0.1", "--tablePort", strconv.Itoa(port)}, azuriteFlags...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = work
	cmd.Stdout = io.Discard
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		cmd.Process.Kill()
		<-exited
		os.RemoveAll(work)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for i := 0; i < 300; i++ {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return addr, stop, nil
		}
		select {
		case <-exited:
			stop()
			return "", nil, errors.New("azurite exited before listening")
		case <-time.After(100 * time.Millisecond):
		}
	}
	stop()
	return "", nil, fmt.Errorf("azurite did not listen on %s", addr)
}
