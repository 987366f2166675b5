package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

var crashSeed = flag.Int64("crash.seed", 0, "run the crash test with this seed (0: from the clock)")

// The crash test's size: kills, writers, and the log size that starts a
// compaction (small, so that kills also land during compactions).
const (
	crashKills    = 24
	crashWriters  = 6
	crashCompact  = "16384"
	crashTable    = "crash"
	absent        = "absent"
	crashMaxPause = 250 * time.Millisecond
)

// fact is one thing the account holds (an entity's value, a table's
// existence, the ACL, the service properties) as the clients know it:
// confirmed by a 2xx or by the last restart, and maybe changed by a request
// that got no answer (the server died under it). Requests of one batch share
// a group: after a restart, all of them took effect or none did.
type fact struct {
	confirmed string
	maybe     *string
	group     int
}

// crashModel is what the clients know, shared by the writers.
type crashModel struct {
	mu     sync.Mutex
	facts  map[string]*fact
	groups int
	counts map[string]int // acknowledged, refused, unanswered
}

// waitAcknowledged waits until at least n writes were acknowledged in all,
// or limit passed.
func (m *crashModel) waitAcknowledged(n int, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		m.mu.Lock()
		got := m.counts["acknowledged"]
		m.mu.Unlock()
		if got >= n {
			return
		}
	}
}

func (m *crashModel) get(key string) *fact {
	f := m.facts[key]
	if f == nil {
		f = &fact{confirmed: initial(key)}
		m.facts[key] = f
	}
	return f
}

// initial is a fact's value before any request touched it.
func initial(key string) string {
	if strings.HasPrefix(key, "e/") || strings.HasPrefix(key, "t/") {
		return absent
	}
	return ""
}

// outcome records what a request that sets keys to values learnt: a 2xx
// confirms them, an error answer confirms they did not change, no answer
// leaves them maybe changed (as one group). It returns the kind of outcome.
func (m *crashModel) outcome(err error, keys, values []string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	kind := "acknowledged"
	var re *azcore.ResponseError
	switch {
	case err == nil:
		for i, k := range keys {
			m.get(k).confirmed = values[i]
		}
	case errors.As(err, &re):
		kind = "refused"
		if re.ErrorCode != "" {
			kind = "refused " + re.ErrorCode
		}
		for _, k := range keys {
			m.get(k) // tracked: it must not appear
		}
	default:
		kind = "unanswered"
		m.groups++
		for i, k := range keys {
			f := m.get(k)
			v := values[i]
			f.maybe, f.group = &v, m.groups
		}
	}
	m.counts[kind]++
	return kind
}

// present returns a worker's keys whose entity exists, in order.
func (m *crashModel) present(prefix string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k, f := range m.facts {
		if strings.HasPrefix(k, prefix) && f.confirmed != absent && f.maybe == nil {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func (m *crashModel) value(key string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(key).confirmed
}

// verify compares what a restarted server holds with what the clients know,
// then takes it as confirmed.
func (m *crashModel) verify(t *testing.T, ctx context.Context, svc *aztables.ServiceClient, where string) {
	t.Helper()
	seen := map[string]string{}
	pager := svc.NewClient(crashTable).NewListEntitiesPager(nil)
	for pages := 0; pager.More(); pages++ {
		if pages > 1000 {
			t.Fatalf("%s: listing does not end", where)
		}
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatalf("%s: list entities: %v", where, err)
		}
		for _, raw := range page.Entities {
			pk, rk, v := decodeCrashEntity(t, raw)
			seen["e/"+pk+"/"+rk] = v
		}
	}
	tables := svc.NewListTablesPager(nil)
	for pages := 0; tables.More(); pages++ {
		if pages > 1000 {
			t.Fatalf("%s: table listing does not end", where)
		}
		page, err := tables.NextPage(ctx)
		if err != nil {
			t.Fatalf("%s: list tables: %v", where, err)
		}
		for _, tp := range page.Tables {
			if *tp.Name != crashTable {
				seen["t/"+*tp.Name] = "present"
			}
		}
	}
	acl, err := svc.NewClient(crashTable).GetAccessPolicy(ctx, nil)
	if err != nil {
		t.Fatalf("%s: ACL: %v", where, err)
	}
	var ids []string
	for _, id := range acl.SignedIdentifiers {
		ids = append(ids, *id.ID)
	}
	seen["acl"] = strings.Join(ids, ",")
	props, err := svc.GetProperties(ctx, nil)
	if err != nil {
		t.Fatalf("%s: properties: %v", where, err)
	}
	seen["props"] = ""
	if len(props.Cors) > 0 {
		seen["props"] = fmt.Sprint(*props.Cors[0].MaxAgeInSeconds)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range seen {
		if _, ok := m.facts[k]; !ok && k != "acl" && k != "props" {
			t.Errorf("%s: %s = %s was never written", where, k, seen[k])
		}
	}
	took := map[int]map[bool]int{} // group → whether its change is seen → count
	for k, f := range m.facts {
		got, ok := seen[k]
		if !ok {
			got = initial(k)
		}
		switch {
		case got == f.confirmed && (f.maybe == nil || *f.maybe != got):
			if f.maybe != nil {
				took[f.group] = addCount(took[f.group], false)
				m.counts["unanswered, not applied"]++
			}
		case f.maybe != nil && got == *f.maybe:
			took[f.group] = addCount(took[f.group], true)
			m.counts["unanswered, applied"]++
		default:
			want := f.confirmed
			if f.maybe != nil {
				want += " or (unanswered) " + *f.maybe
			}
			t.Errorf("%s: %s = %q, want %s", where, k, got, want)
		}
		f.confirmed, f.maybe, f.group = got, nil, 0
	}
	for g, c := range took {
		if c[true] > 0 && c[false] > 0 {
			t.Errorf("%s: batch %d applied in part: %d of %d changes", where, g, c[true], c[true]+c[false])
		}
	}
}

func addCount(m map[bool]int, k bool) map[bool]int {
	if m == nil {
		m = map[bool]int{}
	}
	m[k]++
	return m
}

func decodeCrashEntity(t *testing.T, raw []byte) (pk, rk, v string) {
	s := string(raw)
	field := func(name string) string {
		i := strings.Index(s, `"`+name+`":`)
		if i < 0 {
			t.Fatalf("entity without %s: %s", name, s)
		}
		rest := strings.TrimLeft(s[i+len(name)+3:], " ")
		end := strings.IndexAny(rest, ",}")
		return strings.Trim(rest[:end], `"`)
	}
	return field("PartitionKey"), field("RowKey"), "V=" + field("V")
}

// tearTail appends the start of a record to the newest log segment, as a
// write cut short by a power failure leaves it.
func tearTail(t *testing.T, dir string, r *rand.Rand) {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "log-*"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no log segment in %s: %v", dir, err)
	}
	sort.Strings(logs)
	f, err := os.OpenFile(logs[len(logs)-1], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A header announcing 200 bytes, a checksum, and part of the payload.
	torn := append([]byte{200, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}, []byte(`{"op":"write","table":"crash"`)[:1+r.Intn(28)]...)
	if _, err := f.Write(torn); err != nil {
		t.Fatal(err)
	}
}

func crashEntity(pk, rk string, v int) []byte {
	return []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"V":%d}`, pk, rk, v))
}

// writer makes random entity writes in its own partition until its context
// ends or the server stops answering.
func writer(ctx context.Context, m *crashModel, c *aztables.Client, w int, r *rand.Rand, next *int) {
	pk := fmt.Sprint("w", w)
	prefix := "e/" + pk + "/"
	newKey := func() string { *next++; return fmt.Sprintf("k%06d", *next) }
	val := func() int { *next++; return *next }
	key := func(k string) string { return prefix + k }
	for ctx.Err() == nil {
		have := m.present(prefix)
		pick := func() string { return strings.TrimPrefix(have[r.Intn(len(have))], prefix) }
		var kind string
		switch x := r.Intn(100); {
		case x < 35 || len(have) == 0: // insert a new entity
			rk, v := newKey(), val()
			_, err := c.AddEntity(ctx, crashEntity(pk, rk, v), nil)
			kind = m.outcome(err, []string{key(rk)}, []string{fmt.Sprint("V=", v)})
		case x < 55: // replace one
			rk, v := pick(), val()
			_, err := c.UpsertEntity(ctx, crashEntity(pk, rk, v), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace})
			kind = m.outcome(err, []string{key(rk)}, []string{fmt.Sprint("V=", v)})
		case x < 65: // delete one
			rk := pick()
			_, err := c.DeleteEntity(ctx, pk, rk, &aztables.DeleteEntityOptions{IfMatch: to.Ptr(azcore.ETagAny)})
			kind = m.outcome(err, []string{key(rk)}, []string{absent})
		case x < 75: // insert one that exists: 409, nothing changes
			rk := pick()
			_, err := c.AddEntity(ctx, crashEntity(pk, rk, -1), nil)
			kind = m.outcome(asRefusal(err), nil, nil)
			if err == nil {
				kind = "insert of an existing entity succeeded"
			}
		case x < 90: // a batch: three inserts and a replace
			var actions []aztables.TransactionAction
			var keys, values []string
			for i := 0; i < 3; i++ {
				rk, v := newKey(), val()
				actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: crashEntity(pk, rk, v)})
				keys, values = append(keys, key(rk)), append(values, fmt.Sprint("V=", v))
			}
			rk, v := pick(), val()
			actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeInsertReplace, Entity: crashEntity(pk, rk, v)})
			keys, values = append(keys, key(rk)), append(values, fmt.Sprint("V=", v))
			_, err := c.SubmitTransaction(ctx, actions, nil)
			kind = m.outcome(err, keys, values)
		default: // a batch that fails at its last operation: none of it is kept
			var actions []aztables.TransactionAction
			var keys []string
			for i := 0; i < 2; i++ {
				rk := newKey()
				actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: crashEntity(pk, rk, val())})
				keys = append(keys, key(rk))
			}
			actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: crashEntity(pk, pick(), -2)})
			_, err := c.SubmitTransaction(ctx, actions, nil)
			kind = m.outcome(asRefusal(err), keys, nil)
			if err == nil {
				kind = "a failing batch succeeded"
			}
		}
		if kind != "acknowledged" && kind != "refused" {
			m.note(kind)
			return
		}
	}
}

// asRefusal turns a request that cannot succeed into a refusal for the
// model: answered or not, it must change nothing.
func asRefusal(err error) error {
	if err == nil {
		return nil
	}
	return &azcore.ResponseError{StatusCode: 409}
}

// note counts an event; a writer stops after anything but a 2xx or a
// refusal.
func (m *crashModel) note(kind string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts["stopped: "+kind]++
}

// tableWriter creates and deletes tables and sets the ACL and the service
// properties.
func tableWriter(ctx context.Context, m *crashModel, svc *aztables.ServiceClient, r *rand.Rand, next *int) {
	for ctx.Err() == nil {
		*next++
		n := *next
		var kind string
		switch x := r.Intn(4); {
		case x == 0:
			name := fmt.Sprint("tbl", n)
			_, err := svc.CreateTable(ctx, name, nil)
			kind = m.outcome(err, []string{"t/" + name}, []string{"present"})
		case x == 1:
			var have []string
			for _, k := range m.present("t/") {
				have = append(have, strings.TrimPrefix(k, "t/"))
			}
			if len(have) == 0 {
				continue
			}
			name := have[r.Intn(len(have))]
			_, err := svc.DeleteTable(ctx, name, nil)
			kind = m.outcome(err, []string{"t/" + name}, []string{absent})
		case x == 2:
			id := fmt.Sprint("v", n)
			_, err := svc.NewClient(crashTable).SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{{
				ID: &id, AccessPolicy: &aztables.AccessPolicy{Permission: to.Ptr("r"), Expiry: to.Ptr(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))},
			}}})
			kind = m.outcome(err, []string{"acl"}, []string{id})
		default:
			_, err := svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{{
				AllowedOrigins: to.Ptr("https://example.com"), AllowedMethods: to.Ptr("GET"), AllowedHeaders: to.Ptr(""),
				ExposedHeaders: to.Ptr(""), MaxAgeInSeconds: to.Ptr(int32(n)),
			}}}, nil)
			kind = m.outcome(err, []string{"props"}, []string{fmt.Sprint(n)})
		}
		if kind != "acknowledged" {
			m.note(kind)
			return
		}
	}
}

// TestCrashKeepsAcknowledgedWrites kills a `tableplay serve --data DIR`
// with SIGKILL at random points under concurrent SDK writes, restarts it,
// and checks every time that each write answered 2xx is there, none answered
// with an error is, and each batch is all there or not at all. -crash.seed=N
// repeats a run's random choices (the kills' timing still varies).
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	seed := *crashSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (go test ./cmd/tableplay -run TestCrash -crash.seed=%d)", seed, seed)
	r := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	dir := t.TempDir()
	args := []string{"--data", dir, "--compact-bytes", crashCompact}
	m := &crashModel{facts: map[string]*fact{}, counts: map[string]int{}}
	c := startChild(t, nil, args...)
	if _, err := c.service(t).CreateTable(ctx, crashTable, nil); err != nil {
		t.Fatal(err)
	}
	next := make([]int, crashWriters+1)
	cuts, snapshots := 0, 0
	for kill := 1; kill <= crashKills && !t.Failed(); kill++ {
		wctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		svc := c.service(t)
		for w := 0; w < crashWriters; w++ {
			wg.Add(1)
			go func(w int, r *rand.Rand) {
				defer wg.Done()
				writer(wctx, m, svc.NewClient(crashTable), w, r, &next[w])
			}(w, rand.New(rand.NewSource(r.Int63())))
		}
		wg.Add(1)
		go func(r *rand.Rand) {
			defer wg.Done()
			tableWriter(wctx, m, svc, r, &next[crashWriters])
		}(rand.New(rand.NewSource(r.Int63())))
		time.Sleep(time.Duration(r.Int63n(int64(crashMaxPause))) + 10*time.Millisecond)
		// A busy machine answers fewer writes in the pause: wait for ten
		// acknowledged since the last kill (within a bound), so that each
		// kill has writes to lose, however slow the server is.
		m.waitAcknowledged(10*kill, 30*time.Second)
		c.kill(t)
		cancel()
		wg.Wait()
		// A power cut can leave half of the last, unacknowledged write;
		// every third kill gets such a tail. A SIGKILL can leave one too
		// (a write crossing a page, half of it in the kernel's cache), so
		// a cut after any kill is correct as long as no acknowledged write
		// is lost (verify below); a torn tail not cut is a bug.
		torn := kill%3 == 0
		if torn {
			tearTail(t, dir, r)
		}

		c = startChild(t, nil, args...)
		// The start-up line says what was loaded and what was cut (stderr
		// says it too, but may arrive after stdout).
		if cut := strings.Contains(c.account(), "; cut "); torn && !cut {
			t.Errorf("after kill %d: a torn tail was not cut: %s", kill, c.account())
		} else if cut {
			cuts++
		}
		if strings.Contains(c.account(), "snapshot") {
			snapshots++
		}
		m.verify(t, ctx, c.service(t), fmt.Sprintf("seed %d, after kill %d", seed, kill))
	}
	// A clean stop keeps everything too.
	c.stop(t)
	c = startChild(t, nil, args...)
	defer c.stop(t)
	m.verify(t, ctx, c.service(t), fmt.Sprintf("seed %d, after a clean stop", seed))
	t.Logf("%d kills; restarts from a snapshot: %d; tails cut: %d; requests: %v", crashKills, snapshots, cuts, m.counts)
	if m.counts["acknowledged"] < crashKills*10 || m.counts["refused"] == 0 || m.counts["unanswered, applied"] == 0 {
		t.Errorf("too little happened to prove anything: %v", m.counts)
	}
	for kind, n := range m.counts {
		// Writers stop when the server dies under them, and for nothing
		// else: a refused valid write or an accepted invalid one is a bug.
		if strings.HasPrefix(kind, "stopped: ") && kind != "stopped: unanswered" {
			t.Errorf("%d writer(s) %s", n, kind)
		}
	}
}
