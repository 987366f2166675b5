//go:build unix

package room_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tableplay/tableplay/internal/sdktest"
)

// tableClient is the Go SDK on one table of a room, without retries (a
// write either answered or failed, so the test knows what was
// acknowledged).
func tableClient(t testing.TB, w *workerd, r room, table string) *aztables.Client {
	t.Helper()
	return sdktest.Service(t, w.url()+"/"+r.Account, r.Account, r.Key, &http.Client{Timeout: 10 * time.Second}).NewClient(table)
}

// roomTable is a new room (opts as POST /rooms takes them) with a table
// created in it, and the Go SDK on that table.
func roomTable(t testing.TB, w *workerd, opts map[string]any, table string) (room, *aztables.Client) {
	t.Helper()
	r := w.mustRoom(opts)
	tc := tableClient(t, w, r, table)
	if _, err := tc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return r, tc
}

func entityJSON(pk, rk string, props map[string]any) []byte {
	b, err := aztables.EDMEntity{Entity: aztables.Entity{PartitionKey: pk, RowKey: rk}, Properties: props}.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

// readAll lists every entity of the table: PartitionKey/RowKey → V.
func readAll(t testing.TB, tc *aztables.Client) map[string]string {
	t.Helper()
	out := map[string]string{}
	pager := tc.NewListEntitiesPager(nil)
	for pages := 0; pager.More(); pages++ {
		if pages > 10000 {
			t.Fatal("more than 10,000 pages")
		}
		page, err := pager.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range page.Entities {
			var e aztables.EDMEntity
			if err := e.UnmarshalJSON(raw); err != nil {
				t.Fatal(err)
			}
			v, _ := e.Properties["V"].(string)
			out[e.PartitionKey+"/"+e.RowKey] = v
		}
	}
	return out
}

// TestRoomKill9 kills workerd with SIGKILL ten times at random moments
// (after a random number of acknowledged writes) while four Go SDK writers insert entities and batches of three, and
// restarts it on the same directory each time. Afterwards every write that
// was acknowledged is there with its value, nothing is there that no
// writer sent, and every batch is there whole or not at all.
func TestRoomKill9(t *testing.T) {
	w := startWorkerd(t)
	r := w.mustRoom(nil)
	tc := tableClient(t, w, r, "crash")
	if _, err := tc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	const writers, kills = 4, 10
	var (
		mu      sync.Mutex
		sent    = map[string]string{} // every entity a writer sent: key → V
		acked   = map[string]string{}
		batches = map[string]bool{} // a batch's PartitionKey → acknowledged
		stop    atomic.Bool
		wg      sync.WaitGroup
	)
	for n := 0; n < writers; n++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			c := tableClient(t, w, r, "crash")
			for i := 0; !stop.Load() && i < 100000; i++ {
				v := fmt.Sprintf("w%d-%d", n, i)
				if i%4 == 3 {
					pk := "batch-" + v
					var acts []aztables.TransactionAction
					mu.Lock()
					for _, rk := range []string{"a", "b", "c"} {
						sent[pk+"/"+rk] = v
						acts = append(acts, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: entityJSON(pk, rk, map[string]any{"V": v})})
					}
					batches[pk] = false
					mu.Unlock()
					if _, err := c.SubmitTransaction(context.Background(), acts, nil); err == nil {
						mu.Lock()
						batches[pk] = true
						for _, rk := range []string{"a", "b", "c"} {
							acked[pk+"/"+rk] = v
						}
						mu.Unlock()
					} else {
						time.Sleep(5 * time.Millisecond)
					}
					continue
				}
				pk, rk := fmt.Sprintf("w%d", n), fmt.Sprintf("%06d", i)
				mu.Lock()
				sent[pk+"/"+rk] = v
				mu.Unlock()
				if _, err := c.AddEntity(context.Background(), entityJSON(pk, rk, map[string]any{"V": v}), nil); err == nil {
					mu.Lock()
					acked[pk+"/"+rk] = v
					mu.Unlock()
				} else {
					var re *azcore.ResponseError
					if errors.As(err, &re) {
						t.Errorf("write %s answered %d %s", v, re.StatusCode, re.ErrorCode)
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		}(n)
	}
	// Each kill comes after a random number (10-39) of writes acknowledged
	// since the restart, and a random few milliseconds more, so that it
	// lands at any stage of the writes in flight.
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 26))
	for k := 0; k < kills; k++ {
		mu.Lock()
		target := len(acked) + 10 + rng.IntN(30)
		mu.Unlock()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
			mu.Lock()
			n := len(acked)
			mu.Unlock()
			if n >= target {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("kill %d: fewer than %d writes acknowledged within 10 s of the restart:\n%s", k+1, target, w.output())
			}
		}
		time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
		w.kill()
		w.start()
	}
	time.Sleep(300 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	got := readAll(t, tc)
	mu.Lock()
	defer mu.Unlock()
	lost := 0
	for k, v := range acked {
		if got[k] != v {
			lost++
			if lost <= 5 {
				t.Errorf("acknowledged %s = %s, found %q", k, v, got[k])
			}
		}
	}
	for k, v := range got {
		if sent[k] != v {
			t.Errorf("%s = %s is there, but no writer sent it", k, v)
		}
	}
	whole, absent := 0, 0
	for pk := range batches {
		n := 0
		for _, rk := range []string{"a", "b", "c"} {
			if _, ok := got[pk+"/"+rk]; ok {
				n++
			}
		}
		switch n {
		case 0:
			absent++
		case 3:
			whole++
		default:
			t.Errorf("batch %s: %d of its 3 entities are there", pk, n)
		}
	}
	if len(acked) < 100 {
		t.Errorf("only %d writes acknowledged across the kills: too few to show anything", len(acked))
	}
	t.Logf("%d kills: %d of %d acknowledged writes kept (%d lost), %d entities found of %d sent; batches: %d whole, %d absent", kills, len(acked)-lost, len(acked), lost, len(got), len(sent), whole, absent)
}

// TestRoomCompaction writes more than the journal keeps before the alarm
// compacts it — batches of three entities of about 900 KB, each change
// record cut into several rows — and checks that the alarm made snapshot
// rows and emptied the journal, and that after a SIGKILL the account comes
// back the same from them.
func TestRoomCompaction(t *testing.T) {
	w := startWorkerd(t)
	r, tc := roomTable(t, w, nil, "big")
	ctx := context.Background()
	blob := func(seed int) map[string]any {
		props := map[string]any{"V": fmt.Sprint(seed)}
		for i := 0; i < 14; i++ {
			b := bytes.Repeat([]byte{byte(seed), byte(i)}, 32000)
			props[fmt.Sprintf("B%02d", i)] = aztables.EDMBinary(b)
		}
		return props
	}
	for n := 0; n < 2; n++ {
		var acts []aztables.TransactionAction
		for i := 0; i < 3; i++ {
			acts = append(acts, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: entityJSON("p", fmt.Sprintf("%d-%d", n, i), blob(n*3+i))})
		}
		if _, err := tc.SubmitTransaction(ctx, acts, nil); err != nil {
			t.Fatal(err)
		}
	}
	before := readAll(t, tc)
	// The alarm compacts about 2 s after the write that passed the
	// threshold; wait for it at most 20 s.
	var info map[string]any
	for deadline := time.Now().Add(20 * time.Second); ; {
		info = roomInfo(t, w, r.Account)
		if info["records"] == 0.0 && info["snapshotBlocks"].(float64) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no compaction within 20 s: %v", info)
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.kill()
	w.start()
	after := readAll(t, tc)
	if len(after) != 6 || fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("after compaction and a kill: %v, before: %v", after, before)
	}
	got, err := tc.GetEntity(ctx, "p", "1-2", nil)
	if err != nil {
		t.Fatal(err)
	}
	var e aztables.EDMEntity
	if err := e.UnmarshalJSON(got.Value); err != nil {
		t.Fatal(err)
	}
	if b, _ := e.Properties["B13"].(aztables.EDMBinary); !bytes.Equal(b, bytes.Repeat([]byte{5, 13}, 32000)) {
		t.Fatal("a binary property came back different from the snapshot")
	}
	t.Logf("compacted: %v", info)
}

// roomInfo is the test entry's GET /rooms/<account>.
func roomInfo(t testing.TB, w *workerd, account string) map[string]any {
	t.Helper()
	resp, err := http.Get(w.url() + "/rooms/" + account)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	return info
}
