//go:build unix

package room_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tableplay/tableplay/internal/sdktest"
)

func wantStatus(t *testing.T, err error, status int, code string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != status || re.ErrorCode != code {
		t.Fatalf("want %d %s, got %v", status, code, err)
	}
}

// TestRoomIsolation: room A's key, or a SAS signed with it, neither reads
// nor writes room B.
func TestRoomIsolation(t *testing.T) {
	w := startWorkerd(t)
	a, b := w.mustRoom(nil), w.mustRoom(nil)
	ctx := context.Background()
	tb := tableClient(t, w, b, "secret")
	if _, err := tb.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.AddEntity(ctx, entityJSON("p", "r", map[string]any{"V": "b's"}), nil); err != nil {
		t.Fatal(err)
	}
	// B's name with A's key.
	wrongKey := tableClient(t, w, room{Account: b.Account, Key: a.Key}, "secret")
	_, err := wrongKey.GetEntity(ctx, "p", "r", nil)
	wantStatus(t, err, 403, "AuthenticationFailed")
	_, err = wrongKey.AddEntity(ctx, entityJSON("p", "x", map[string]any{"V": "a's"}), nil)
	wantStatus(t, err, 403, "AuthenticationFailed")
	// A SAS signed with A's key, pointed at B's table.
	ta := tableClient(t, w, a, "secret")
	sas, err := ta.GetTableSASURL(aztables.SASPermissions{Read: true, Add: true, Update: true, Delete: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	sas = strings.Replace(sas, "/"+a.Account+"secret?", "/"+b.Account+"/secret?", 1)
	if !strings.Contains(sas, "/"+b.Account+"/secret?") {
		t.Fatalf("SAS URL %s", sas)
	}
	viaSAS, err := aztables.NewClientWithNoCredential(sas, sdktest.Options(nil))
	if err != nil {
		t.Fatal(err)
	}
	_, err = viaSAS.GetEntity(ctx, "p", "r", nil)
	wantStatus(t, err, 403, "AuthenticationFailed")
	_, err = viaSAS.AddEntity(ctx, entityJSON("p", "y", map[string]any{"V": "a's"}), nil)
	wantStatus(t, err, 403, "AuthenticationFailed")
	// Unsigned requests are refused too: the native server's rules.
	resp, err := http.Get(w.url() + "/" + b.Account + "/secret()")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("unsigned query: %d, want 403", resp.StatusCode)
	}
	if got := readAll(t, tb); len(got) != 1 || got["p/r"] != "b's" {
		t.Fatalf("room B holds %v", got)
	}
}

// TestRoomLimits: a room at its entity limit refuses inserts (and batches)
// but still reads and deletes; requests over its rate in one second get
// the service's 503 ServerBusy.
func TestRoomLimits(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(map[string]any{"limits": map[string]any{"entities": 3, "rps": 0}})
	tc := tableClient(t, w, r, "small")
	ctx := context.Background()
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := tc.AddEntity(ctx, entityJSON("p", fmt.Sprint(i), map[string]any{"V": "v"}), nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := tc.AddEntity(ctx, entityJSON("p", "3", map[string]any{"V": "v"}), nil)
	wantStatus(t, err, 403, "RoomLimitExceeded")
	if !strings.Contains(err.Error(), "3 entities, its limit") {
		t.Fatalf("the message does not name the limit: %v", err)
	}
	_, err = tc.SubmitTransaction(ctx, []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: entityJSON("p", "4", map[string]any{"V": "v"})}}, nil)
	if err == nil {
		t.Fatal("a batch insert went through at the limit")
	}
	if _, err := tc.GetEntity(ctx, "p", "0", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.DeleteEntity(ctx, "p", "0", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.AddEntity(ctx, entityJSON("p", "3", map[string]any{"V": "v"}), nil); err != nil {
		t.Fatalf("under the limit again: %v", err)
	}

	fast := w.mustRoom(map[string]any{"limits": map[string]any{"rps": 5}})
	at := strconv.FormatInt(time.Now().UnixMilli(), 10)
	var statuses []int
	for i := 0; i < 7; i++ {
		req, _ := http.NewRequest("GET", w.url()+"/"+fast.Account+"/Tables", nil)
		req.Header.Set("X-Tableplay-Room-Now", at) // all in one second
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
		if resp.StatusCode == 503 && !strings.Contains(string(body), `"code":"ServerBusy"`) {
			t.Fatalf("503 without ServerBusy: %s", body)
		}
	}
	// Unsigned, so the first five are the engine's 403; the rest are busy.
	if fmt.Sprint(statuses) != "[403 403 403 403 403 503 503]" {
		t.Fatalf("statuses %v", statuses)
	}
}

// TestRoomExpiry: a room idle for its idle time is deleted by its alarm,
// and then says that it expired.
func TestRoomExpiry(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(map[string]any{"idleSeconds": 1})
	tc := tableClient(t, w, r, "brief")
	if _, err := tc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var err error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if info := roomInfo(t, w, r.Account); info["expired"] != nil {
			break
		}
	}
	_, err = tc.GetEntity(context.Background(), "p", "r", nil)
	wantStatus(t, err, 404, "ResourceNotFound")
	if !strings.Contains(err.Error(), "expired at") || !strings.Contains(err.Error(), "its data was deleted") {
		t.Fatalf("the answer does not say the room expired: %v", err)
	}
	if info := roomInfo(t, w, r.Account); info["entities"] != nil || info["expired"] == nil {
		t.Fatalf("info after expiry: %v", info)
	}
}

// TestRoomExpiresWhileABodyComes: a room whose alarm expires it while a
// signed request's body is still arriving answers that request in the service's
// format (the room expired), not with an exception of the object.
func TestRoomExpiresWhileABodyComes(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(map[string]any{"idleSeconds": 1})
	body, send := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, w.url()+"/"+r.Account+"/Tables", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	signRequest(t, req, r)
	type answer struct {
		status int
		body   string
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		answered <- answer{status: resp.StatusCode, body: string(b)}
	}()
	if _, err := send.Write([]byte(`{"TableName":`)); err != nil {
		t.Fatal(err)
	}
	expired := false
	for deadline := time.Now().Add(15 * time.Second); !expired && time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		expired = roomInfo(t, w, r.Account)["expired"] != nil
	}
	if !expired {
		t.Fatalf("the room did not expire within 15 s:\n%s", w.output())
	}
	send.Write([]byte(`"late"}`))
	send.Close()
	a := <-answered
	if a.err != nil || a.status != 404 || !strings.Contains(a.body, "ResourceNotFound") || !strings.Contains(a.body, "expired at") {
		t.Fatalf("answer %d %q (%v), want 404 ResourceNotFound saying the room expired\n%s", a.status, a.body, a.err, w.output())
	}
}

// TestRoomActiveBeforeARestartDoesNotExpireEarly: activity is written down
// at most once a minute, so a restarted object does not know the last
// minute's requests; it must not expire a room that was used less than its
// idle time ago. Idle time 6 s: used until about 4 s, restarted, the room
// is still there at 8 s (the written activity, 0 s, would expire it at 6 s).
func TestRoomActiveBeforeARestartDoesNotExpireEarly(t *testing.T) {
	w := startWorkerd(t)
	created := time.Now()
	r := w.mustRoom(map[string]any{"idleSeconds": 6})
	tc := tableClient(t, w, r, "used")
	ctx := context.Background()
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for time.Since(created) < 4*time.Second {
		if _, err := tc.AddEntity(ctx, entityJSON("p", strconv.FormatInt(time.Now().UnixNano(), 10), nil), nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	w.kill()
	w.start()
	// The check comes after the written activity's expiry (6 s) and, when
	// the restart was slow, a second after it (an overdue alarm runs at
	// the start): with the last minute's activity unknown, the room lives
	// at least 6 s past the restart.
	restarted := time.Now()
	check := created.Add(8 * time.Second)
	if check.Before(restarted.Add(time.Second)) {
		check = restarted.Add(time.Second)
	}
	time.Sleep(time.Until(check))
	if _, err := tc.GetEntity(ctx, "p", "none", nil); err == nil || strings.Contains(err.Error(), "expired") {
		t.Fatalf("a room used %v ago, idle time 6 s: %v", time.Since(created)-4*time.Second, err)
	}
}
