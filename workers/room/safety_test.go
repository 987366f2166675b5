//go:build unix

package room_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/sdktest"
	"github.com/tableplay/tableplay/workers/workerdtest"
)

// signRequest signs req with the room's key (Shared Key Lite, as the SDKs
// sign), now.
func signRequest(t testing.TB, req *http.Request, r room) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(r.Key)
	if err != nil {
		t.Fatal(err)
	}
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	req.Header.Set("X-Ms-Date", date)
	req.Header.Set("X-Ms-Version", "2019-02-02")
	req.Header.Set("Authorization", rest.Credentials{Account: r.Account, Key: key}.Sign(date, req.URL))
}

// TestRoomUnsignedBodiesAreNotRead: 40 unsigned 4 MiB PUTs to a room are
// refused on their heads, before the object reads their bodies, so
// workerd's resident memory grows by far less than the 160 MiB they carry
// (before the gate: +266-350 MB); a signed body over 4 MiB is answered
// 413 RequestBodyTooLarge.
func TestRoomUnsignedBodiesAreNotRead(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(nil)
	tc := tableClient(t, w, r, "big")
	if _, err := tc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 4<<20)
	// An answer that comes before the body was read ends the connection,
	// and the client may see its write cut (0) instead of the answer.
	put := func(i int, sign bool, b []byte) int {
		req, _ := http.NewRequest(http.MethodPut, fmt.Sprintf("%s/%s/big(PartitionKey='p',RowKey='%d')", w.url(), r.Account, i), bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if sign {
			signRequest(t, req, r)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		return resp.StatusCode
	}
	put(0, false, body) // the first warms the isolate's buffers
	before := workerdtest.RSS(t, w.pid())
	refused := 0
	for i := 1; i <= 40; i++ {
		switch got := put(i, false, body); got {
		case http.StatusForbidden:
			refused++
		case 0:
		default:
			t.Fatalf("unsigned PUT %d: %d, want 403", i, got)
		}
	}
	t.Logf("%d of 40 answers were read before the connection was cut", refused)
	after := workerdtest.RSS(t, w.pid())
	t.Logf("workerd RSS %d MB before, %d MB after 40 unsigned 4 MiB PUTs (+%d MB)", before>>20, after>>20, (after-before)>>20)
	if after-before > 32<<20 {
		t.Fatalf("40 unsigned 4 MiB PUTs grew workerd by %d MB", (after-before)>>20)
	}
	if got := put(99, true, append(body, 'x')); got != http.StatusRequestEntityTooLarge && got != 0 {
		t.Fatalf("signed PUT of 4 MiB + 1: %d, want 413", got)
	}
	if got := put(98, true, []byte(`{"V":"small"}`)); got != http.StatusNoContent {
		t.Fatalf("a signed small PUT after them: %d, want 204", got)
	}
}

// heldBodies is a transport that sends each request's head and the first
// KB of its body, then holds the rest until n requests have come that far:
// the batches' bodies are all arriving at once, as on a slow link.
type heldBodies struct {
	n       int
	mu      sync.Mutex
	arrived int
	go_     chan struct{}
}

func (h *heldBodies) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.ContentLength > 2048 {
		body, _ := io.ReadAll(req.Body)
		pr, pw := io.Pipe()
		go func() {
			pw.Write(body[:1024])
			h.mu.Lock()
			if h.arrived++; h.arrived == h.n {
				close(h.go_)
			}
			h.mu.Unlock()
			select {
			case <-h.go_:
			case <-time.After(20 * time.Second):
			}
			time.Sleep(50 * time.Millisecond) // the held heads reach the object first
			pw.Write(body[1024:])
			pw.Close()
		}()
		req.Body = pr
	}
	return (&http.Client{Timeout: 60 * time.Second}).Do(req)
}

// TestRoomLimitUnderConcurrency: 16 batches of 100 entities whose bodies
// arrive at once, to a room whose limit is 10 entities: the limit is judged
// just before each commit, with the body in hand, so the room ends at
// most one write over it (the first batch: 100), never more (before: every
// batch passed the check made before its body came, 1,600).
func TestRoomLimitUnderConcurrency(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(map[string]any{"limits": map[string]any{"entities": 10}})
	tc := tableClient(t, w, r, "many")
	ctx := context.Background()
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	held := &heldBodies{n: 16, go_: make(chan struct{})}
	svc := sdktest.Service(t, w.url()+"/"+r.Account, r.Account, r.Key, held)
	slow := svc.NewClient("many")
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	for b := 0; b < 16; b++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			actions := make([]aztables.TransactionAction, 100)
			for i := range actions {
				actions[i] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: entityJSON(strconv.Itoa(b), strconv.Itoa(i), map[string]any{"V": "v"})}
			}
			if _, err := slow.SubmitTransaction(ctx, actions, nil); err != nil {
				mu.Lock()
				refused++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	n := len(readAll(t, tc))
	t.Logf("%d entities after 16 concurrent 100-entity batches; %d refused", n, refused)
	if n > 100 {
		t.Fatalf("a room limited to 10 entities holds %d after 16 concurrent 100-entity batches", n)
	}
}

// TestRoomBudgetIsTheCallers: a flood of unsigned requests does not spend
// the room's requests per second: the owner's signed requests in the same
// second are answered, the unsigned ones beyond the budget get 503.
func TestRoomBudgetIsTheCallers(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(map[string]any{"limits": map[string]any{"rps": 5}})
	at := strconv.FormatInt(time.Now().UnixMilli()+5000, 10) // one second, after the room's setup
	send := func(sign bool) int {
		req, _ := http.NewRequest("GET", w.url()+"/"+r.Account+"/Tables", nil)
		req.Header.Set("X-Tableplay-Room-Now", at)
		if sign {
			signRequest(t, req, r)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	var flood []int
	for i := 0; i < 16; i++ {
		flood = append(flood, send(false))
	}
	var owner []int
	for i := 0; i < 5; i++ {
		owner = append(owner, send(true))
	}
	if fmt.Sprint(owner) != "[200 200 200 200 200]" {
		t.Fatalf("the owner's 5 signed requests after 16 unsigned ones: %v (the unsigned: %v)", owner, flood)
	}
	if flood[15] != 503 {
		t.Fatalf("the unsigned flood was never throttled: %v", flood)
	}
	if got := send(true); got != 503 {
		t.Fatalf("the owner's sixth request in the second: %d, want 503", got)
	}
}
