package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// TestFlippedByteInTheLogStopsTheStart is issue 29's case: 600 inserts
// answered 204, SIGTERM, one byte of the newest log segment flipped at 10 %,
// restart. The server must refuse to start, naming the file and the offset
// and how to keep what is intact, and leave the file as it is: it used to
// start with 59 entities and cut the file there.
func TestFlippedByteInTheLogStopsTheStart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := startChild(t, nil, "--data", dir)
	svc := c.service(t)
	if _, err := svc.CreateTable(ctx, "flip", nil); err != nil {
		t.Fatal(err)
	}
	tc := svc.NewClient("flip")
	for i := 0; i < 600; i++ {
		if _, err := tc.AddEntity(ctx, crashEntity("p", fmt.Sprintf("r%04d", i), i), nil); err != nil {
			t.Fatal(err)
		}
	}
	c.stop(t)
	logs, _ := filepath.Glob(filepath.Join(dir, "log-*"))
	sort.Strings(logs)
	seg := logs[len(logs)-1]
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	flip := len(b) / 10
	b[flip] ^= 0x01
	if err := os.WriteFile(seg, b, 0o600); err != nil {
		t.Fatal(err)
	}

	c, lines := spawn(t, nil, "--data", dir)
	deadline := time.After(20 * time.Second)
	for open := true; open && len(c.lines) < 4; {
		select {
		case l, ok := <-lines:
			if open = ok; ok {
				c.lines = append(c.lines, l)
			}
		case <-deadline:
			c.cmd.Process.Kill()
			t.Fatal("the server neither started nor stopped")
		}
	}
	if len(c.lines) == 4 {
		// It started: count what it serves, then stop it.
		c.url = strings.TrimPrefix(c.lines[0], "tableplay serving on ")
		n := 0
		pager := c.service(t).NewClient("flip").NewListEntitiesPager(&aztables.ListEntitiesOptions{Select: to.Ptr("RowKey")})
		for pages := 0; pager.More() && pages < 100; pages++ {
			page, err := pager.NextPage(ctx)
			if err != nil {
				break
			}
			n += len(page.Entities)
		}
		c.kill(t)
		st, _ := os.Stat(seg)
		t.Fatalf("600 inserts acknowledged, byte %d of %d flipped: the server started, serving %d entities; the segment is now %d bytes; %s", flip, len(b), n, st.Size(), c.account())
	}
	err = <-c.exited
	msg := c.stderr.String()
	t.Logf("600 inserts acknowledged, byte %d of %d flipped: %v; %s", flip, len(b), err, msg)
	if err == nil || !strings.Contains(msg, filepath.Base(seg)+" is damaged at offset ") || !strings.Contains(msg, "refusing to start") || !strings.Contains(msg, "truncate -s ") {
		t.Errorf("exit %v, stderr %q", err, msg)
	}
	if now, _ := os.ReadFile(seg); string(now) != string(b) {
		t.Errorf("the segment was changed: %d bytes, was %d", len(now), len(b))
	}
}

// Issue 29, item 6, through the data directory: keys that are not UTF-8
// are refused, and what bodies' invalid bytes and lone surrogate escapes
// were stored as (U+FFFD) is exactly what the log brings back.
func TestKeysAfterRestartAreWhatWasAcknowledged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := startChild(t, nil, "--data", dir)
	tc := c.service(t).NewClient("utf")
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"caf\xe9", "caf\xc0\x80", "caf\xe8"} {
		_, err := tc.UpsertEntity(ctx, []byte(`{"PartitionKey":"x","RowKey":"r","V":1}`), nil) // a valid one goes through
		if err != nil {
			t.Fatal(err)
		}
		_, err = tc.GetEntity(ctx, pk, "r", nil)
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != 400 || re.ErrorCode != "InvalidInput" {
			t.Errorf("GET of PartitionKey %q: %v", pk, err)
		}
	}
	body := []byte("{\"PartitionKey\":\"caf\xe9\",\"RowKey\":\"\\ud800\",\"V\":\"x\\udc00y\"}")
	if _, err := tc.AddEntity(ctx, body, nil); err != nil {
		t.Fatal(err)
	}
	before, err := tc.GetEntity(ctx, "caf\uFFFD", "\uFFFD", nil)
	if err != nil || !strings.Contains(string(before.Value), `"V":"x`+"\uFFFD"+`y"`) {
		t.Fatalf("stored: %v %s", err, before.Value)
	}
	c.stop(t)
	c = startChild(t, nil, "--data", dir)
	defer c.stop(t)
	after, err := c.service(t).NewClient("utf").GetEntity(ctx, "caf\uFFFD", "\uFFFD", nil)
	// The answers differ only in the server's address.
	same := func(b []byte) string {
		return regexp.MustCompile(`"odata.metadata":"[^"]*"`).ReplaceAllString(string(b), "")
	}
	if err != nil || same(after.Value) != same(before.Value) {
		t.Fatalf("after a restart: %v\n%s\nbefore:\n%s", err, after.Value, before.Value)
	}
}
