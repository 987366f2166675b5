package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store/storetest"
)

// scaleLoaders are the clients that load a scale run's entities at once,
// each sending batches of scaleBatch to partitions of its own.
const (
	scaleLoaders = 4
	scaleBatch   = 100
	scaleRows    = 1000 // per partition
)

// parseSizes reads -scale's list: counts separated by commas, each a
// number with an optional k (thousand) or M (million) suffix.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mul := 1
		switch {
		case strings.HasSuffix(f, "k"):
			f, mul = strings.TrimSuffix(f, "k"), 1000
		case strings.HasSuffix(f, "M"):
			f, mul = strings.TrimSuffix(f, "M"), 1000000
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 || n > 100000000/mul {
			return nil, fmt.Errorf("-scale: %q is not a count of entities (like 100000, 300k or 1M)", f)
		}
		n *= mul
		if n%scaleBatch != 0 {
			return nil, fmt.Errorf("-scale: %d is not a multiple of %d", n, scaleBatch)
		}
		out = append(out, n)
	}
	return out, nil
}

// memory is a process's resident set now and at its peak, from
// /proc/<pid>/status.
type memory struct{ rss, peak int64 }

func readMemory(pid int) (memory, error) { return readProc(pid, "status", parseStatus) }

// parseStatus reads VmRSS and VmHWM (in kB) from the text of
// /proc/<pid>/status.
func parseStatus(s string) (memory, error) {
	var m memory
	found := 0
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return m, fmt.Errorf("unreadable /proc status line %q", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("unreadable /proc status line %q", line)
		}
		if k == "VmRSS" {
			m.rss = n << 10
		} else {
			m.peak = n << 10
		}
		found++
	}
	if found != 2 {
		return m, errors.New("no VmRSS and VmHWM in /proc status")
	}
	return m, nil
}

// parseMemstats reads the live heap from the line tableplay prints on
// SIGUSR1 when TABLEPLAY_MEMSTATS=1.
func parseMemstats(line string) (int64, bool) {
	rest, ok := strings.CutPrefix(line, "tableplay memstats: live-heap=")
	if !ok {
		return 0, false
	}
	f, _, _ := strings.Cut(rest, " ")
	n, err := strconv.ParseInt(f, 10, 64)
	return n, err == nil && n >= 0
}

// scaleServer is a tableplay serve run by the scale benchmark.
type scaleServer = announced

// startScaled runs tableplay serve with the memstats signal on; args choose
// memory or a data directory. A clean stop of a large account may write its
// snapshot first: it has minutes.
func startScaled(ctx context.Context, bin string, args ...string) (*scaleServer, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet"}, args...)...)
	cmd.Env = append(os.Environ(), "TABLEPLAY_MEMSTATS=1")
	return startAnnouncing(cmd, 10*startupLimit, 5*time.Minute)
}

// liveHeap asks the server for its live heap (a collection first).
func (s *scaleServer) liveHeap() (int64, error) {
	for len(s.lines) > 0 {
		<-s.lines
	}
	if err := syscall.Kill(s.pid, syscall.SIGUSR1); err != nil {
		return 0, err
	}
	deadline := time.After(time.Minute)
	for {
		select {
		case l := <-s.lines:
			if n, ok := parseMemstats(l); ok {
				return n, nil
			}
		case <-s.exited:
			return 0, errors.New("tableplay exited")
		case <-deadline:
			return 0, errors.New("no memstats line from tableplay")
		}
	}
}

// scalePartition is partition p's key.
func scalePartition(p int) string { return fmt.Sprintf("part%05d", p) }

// idleLimit closes the client's idle connections before Node's
// keepAliveTimeout (5 s in Azurite) could close them under a new request.
const idleLimit = 4 * time.Second

// scaleClient is a table client of the account at endpoint, for up to
// conns clients at once.
func scaleClient(endpoint, table string, conns int) (*aztables.Client, *aztables.ServiceClient, func(), error) {
	cred, err := aztables.NewSharedKeyCredential(rest.WellKnownAccount, rest.WellKnownKey)
	if err != nil {
		return nil, nil, nil, err
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: conns + 2, MaxIdleConnsPerHost: conns + 2, IdleConnTimeout: idleLimit}}
	svc, err := aztables.NewServiceClientWithSharedKey(endpoint, cred, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: hc,
		Retry:     policy.RetryOptions{MaxRetries: -1},
	}})
	if err != nil {
		return nil, nil, nil, err
	}
	return svc.NewClient(table), svc, hc.CloseIdleConnections, nil
}

// loaded is what loadScale did.
type loaded struct {
	took   time.Duration
	size   int64 // the entities' size by the service's formula
	resets int   // resets met by the batches (not their read-backs), each read back (see submitChecked)
}

// loadScale creates the table "scale" and inserts n entities in batches
// of scaleBatch from scaleLoaders clients.
func loadScale(ctx context.Context, endpoint string, n int) (loaded, error) {
	c, svc, done, err := scaleClient(endpoint, "scale", scaleLoaders)
	if err != nil {
		return loaded{}, err
	}
	defer done()
	if _, err := svc.CreateTable(ctx, "scale", nil); err != nil {
		return loaded{}, err
	}
	var logical, resets atomic.Int64
	batches := n / scaleBatch
	perPartition := scaleRows / scaleBatch
	next := make(chan int, scaleLoaders)
	errs := make(chan error, scaleLoaders)
	begin := time.Now()
	var wg sync.WaitGroup
	for range scaleLoaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				pk := scalePartition(b / perPartition)
				actions := make([]aztables.TransactionAction, scaleBatch)
				for r := range actions {
					row := b%perPartition*scaleBatch + r
					body := storetest.ScaleEntity(pk, rowKey(row), b*scaleBatch+r)
					e, terr := odata.DecodeEntity(body)
					if terr != nil {
						errs <- fmt.Errorf("scale entity: %s", terr.Message)
						return
					}
					logical.Add(int64(e.Size()))
					actions[r] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: body}
				}
				r, err := submitChecked(ctx, func(ctx context.Context) error {
					bctx, cancel := context.WithTimeout(ctx, opLimit)
					defer cancel()
					_, err := c.SubmitTransaction(bctx, actions, nil)
					return err
				}, func(ctx context.Context) (int, error) {
					n, err := batchLanded(ctx, c, pk, b%perPartition*scaleBatch, b*scaleBatch)
					if err == nil {
						fmt.Fprintf(os.Stderr, "perf: %.1fs: batch %d read back: %d of its %d entities stored\n", time.Since(begin).Seconds(), b, n, scaleBatch)
					}
					return n, err
				}, scaleBatch, func(err error) { logReset(begin, fmt.Sprintf("batch %d", b), err) })
				resets.Add(int64(r))
				if err != nil {
					errs <- fmt.Errorf("batch %d: %w", b, err)
					return
				}
			}
		}()
	}
	var ferr error
feed:
	for b := range batches {
		select {
		case next <- b:
		case ferr = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if ferr == nil && len(errs) > 0 {
		ferr = <-errs
	}
	return loaded{took: time.Since(begin), size: logical.Load(), resets: int(resets.Load())}, ferr
}

// logReset tells of a connection reset under an operation, begin being
// when its phase began.
func logReset(begin time.Time, what string, err error) {
	fmt.Fprintf(os.Stderr, "perf: %.1fs: %s: %v\n", time.Since(begin).Seconds(), what, err)
}

// batchLanded counts the entities of a batch (rows first… of partition pk,
// entities i… of storetest.ScaleEntity) stored with the name they were sent with.
func batchLanded(ctx context.Context, c *aztables.Client, pk string, first, i int) (int, error) {
	qctx, cancel := context.WithTimeout(ctx, opLimit)
	defer cancel()
	filter := "PartitionKey eq '" + pk + "' and RowKey ge '" + rowKey(first) + "' and RowKey lt '" + rowKey(first+scaleBatch) + "'"
	p := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr(filter), Select: to.Ptr("RowKey,Name")})
	n := 0
	for pages := 0; p.More() && pages <= scaleBatch; pages++ {
		page, err := p.NextPage(qctx)
		if err != nil {
			return 0, err
		}
		for _, raw := range page.Entities {
			var e struct{ RowKey, Name string }
			if err := json.Unmarshal(raw, &e); err != nil {
				return 0, err
			}
			row, err := strconv.Atoi(e.RowKey)
			if err != nil || row < first || row >= first+scaleBatch {
				return 0, fmt.Errorf("read back %s/%s, not of the batch", pk, e.RowKey)
			}
			if e.Name == "Cust "+strconv.Itoa(i+row-first) {
				n++
			}
		}
	}
	return n, nil
}

// checkLast reads the last entity loaded: the account came back whole to
// its end.
func checkLast(ctx context.Context, endpoint string, n int) error {
	c, _, done, err := scaleClient(endpoint, "scale", 1)
	if err != nil {
		return err
	}
	defer done()
	last := n/scaleBatch - 1
	perPartition := scaleRows / scaleBatch
	pk, rk := scalePartition(last/perPartition), rowKey(last%perPartition*scaleBatch+scaleBatch-1)
	_, err = c.GetEntity(ctx, pk, rk, nil)
	return err
}

// samplePeak resets the process's peak RSS to its RSS now and reads the
// peak every 20 ms until the process is gone; the channel gets the last
// peak read.
func samplePeak(pid int) (chan int64, error) {
	if err := resetPeak(pid); err != nil {
		return nil, err
	}
	m, err := readMemory(pid)
	if err != nil {
		return nil, err
	}
	out := make(chan int64, 1)
	go func() {
		peak := m.peak
		for range time.Tick(20 * time.Millisecond) {
			m, err := readMemory(pid)
			if err != nil {
				break
			}
			peak = max(peak, m.peak)
		}
		out <- peak
	}()
	return out, nil
}

// resetPeak sets the process's peak RSS (VmHWM) to its RSS now.
func resetPeak(pid int) error {
	if err := os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("reset the peak RSS: %w", err)
	}
	return nil
}

// dirSize is the bytes of the files in dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// scaleRow is one server's figures at one size.
type scaleRow struct {
	server string
	n      int
	load   time.Duration
	cpu    time.Duration // the server's CPU time while loading
	size   int64         // the entities' size by the service's formula
	after  memory        // after loading (peak: the whole load, compactions included)
	heap   int64         // live heap after loading; -1 unknown
	resets int           // resets met by the load's batches
	mixed  *mixResult
	// Durable runs only:
	disk        int64         // data directory after loading and a clean stop
	stop        time.Duration // SIGTERM to exit
	stopPeak    int64         // the peak RSS from the steady state to the exit
	restart     time.Duration // exec to listening, the account loaded
	restartCPU  time.Duration // the server's CPU time until then
	restarted   memory        // after the restart
	restartHeap int64
}

// scaleRun loads n entities into tableplay (memory and --data) and, when
// asked, Azurite, printing each row as it is measured.
func scaleRun(ctx context.Context, cfg config, n int, w io.Writer) error {
	mem, err := scaleTableplay(ctx, cfg.server, n, "", cfg.mixed)
	if err != nil {
		return fmt.Errorf("in memory: %w", err)
	}
	printScale(w, mem)
	dir, err := os.MkdirTemp("", "scale-data")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	dur, err := scaleTableplay(ctx, cfg.server, n, dir, 0)
	if err != nil {
		return fmt.Errorf("--data: %w", err)
	}
	printScale(w, dur)
	if cfg.vs == "azurite" {
		az, err := scaleAzurite(ctx, cfg.azurite, n, cfg.mixed, w)
		if err != nil {
			return fmt.Errorf("azurite: %w", err)
		}
		printScale(w, az)
	}
	return nil
}

// scaleTableplay measures one tableplay: in memory when dir is "" (then
// with a mixed phase of that long after the load, unless 0), else durable
// in dir, stopped cleanly and restarted.
func scaleTableplay(ctx context.Context, bin string, n int, dir string, mixed time.Duration) (scaleRow, error) {
	row := scaleRow{server: "tableplay in memory", n: n, heap: -1, restartHeap: -1}
	args := []string{"--in-memory"}
	if dir != "" {
		row.server, args = "tableplay --data", []string{"--data", dir}
	}
	s, err := startScaled(ctx, bin, args...)
	if err != nil {
		return row, err
	}
	defer s.stop()
	before, err := readUsage(s.pid)
	if err != nil {
		return row, err
	}
	l, err := loadScale(ctx, s.endpoint, n)
	if err != nil {
		return row, err
	}
	row.load, row.size, row.resets = l.took, l.size, l.resets
	if row.cpu, err = cpuSince(s.pid, before); err != nil {
		return row, err
	}
	if err := s.measure(&row.after, &row.heap); err != nil {
		return row, err
	}
	if dir == "" && mixed > 0 {
		m, err := mixedPhase(ctx, s.server, n, mixed)
		if err != nil {
			return row, err
		}
		if err := s.measure(&m.after, &m.heap); err != nil {
			return row, err
		}
		row.mixed = &m
	}
	var sampled chan int64
	if dir != "" {
		// The clean stop compacts: its peak, above the steady RSS, is the
		// compaction's.
		if sampled, err = samplePeak(s.pid); err != nil {
			return row, err
		}
	}
	begin := time.Now()
	s.stop()
	row.stop = time.Since(begin)
	if sampled != nil {
		row.stopPeak = <-sampled
	}
	if dir == "" {
		return row, nil
	}
	if row.disk, err = dirSize(dir); err != nil {
		return row, err
	}
	r, err := startScaled(ctx, bin, args...)
	if err != nil {
		return row, fmt.Errorf("restart: %w", err)
	}
	defer r.stop()
	row.restart = r.started
	u, err := readUsage(r.pid)
	if err != nil {
		return row, err
	}
	row.restartCPU = u.cpu
	if err := r.measure(&row.restarted, &row.restartHeap); err != nil {
		return row, err
	}
	return row, checkLast(ctx, r.endpoint, n)
}

// measure reads the memory, then the live heap (its collection would
// change the figures after it).
func (s *scaleServer) measure(m *memory, heap *int64) error {
	var err error
	if *m, err = readMemory(s.pid); err != nil {
		return err
	}
	*heap, err = s.liveHeap()
	return err
}

// scaleAzurite measures Azurite in memory, then a mixed phase of that long
// unless 0; it first prints how Azurite runs to w.
func scaleAzurite(ctx context.Context, script string, n int, mixed time.Duration, w io.Writer) (scaleRow, error) {
	row := scaleRow{server: "azurite in memory", n: n, heap: -1, restartHeap: -1}
	s, err := startAzurite(ctx, script)
	if err != nil {
		return row, err
	}
	defer s.stop()
	fmt.Fprintln(w, azuriteSetup(ctx, script))
	before, err := readUsage(s.pid)
	if err != nil {
		return row, err
	}
	l, err := loadScale(ctx, s.endpoint, n)
	row.load, row.size, row.resets = l.took, l.size, l.resets
	if err == nil {
		row.cpu, err = cpuSince(s.pid, before)
	}
	if err != nil {
		// Say whether Azurite died, and with how much memory if not.
		time.Sleep(time.Second)
		if how := s.exit(); how != "" {
			return row, fmt.Errorf("%w (azurite ended: %s)", err, how)
		}
		if m, merr := readMemory(s.pid); merr == nil {
			return row, fmt.Errorf("%w (azurite still running, RSS %s, peak %s)", err, mb(m.rss), mb(m.peak))
		}
		return row, err
	}
	if row.after, err = readMemory(s.pid); err != nil || mixed == 0 {
		return row, err
	}
	m, err := mixedPhase(ctx, s, n, mixed)
	if err != nil {
		return row, err
	}
	m.after, err = readMemory(s.pid)
	row.mixed = &m
	return row, err
}

// mixedPhase resets s's peak RSS and runs the mixed phase on it, reading
// the server's and this process's CPU time around it.
func mixedPhase(ctx context.Context, s *server, n int, d time.Duration) (mixResult, error) {
	if err := resetPeak(s.pid); err != nil {
		return mixResult{}, err
	}
	server, err := readUsage(s.pid)
	if err != nil {
		return mixResult{}, err
	}
	client, err := readUsage(os.Getpid())
	if err != nil {
		return mixResult{}, err
	}
	m, err := runMixed(ctx, s.endpoint, n, d, uint64(n))
	if err != nil {
		return m, fmt.Errorf("%s: %w", s.name, err)
	}
	server2, err := readUsage(s.pid)
	if err != nil {
		return m, err
	}
	client2, err := readUsage(os.Getpid())
	m.serverCPU, m.clientCPU = server2.cpu-server.cpu, client2.cpu-client.cpu
	return m, err
}

// azuriteSetup says how Azurite runs here: its version, Node's, the V8
// heap limit (NODE_OPTIONS passes through to it) and its flags.
func azuriteSetup(ctx context.Context, script string) string {
	version := "?"
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(script), "..", "..", "..", "package.json")); err == nil {
		var p struct{ Version string }
		if json.Unmarshal(b, &p) == nil {
			version = p.Version
		}
	}
	limit := "?"
	out, err := exec.CommandContext(ctx, "node", "-p", "process.version + ' ' + require('v8').getHeapStatistics().heap_size_limit").Output()
	if f := strings.Fields(string(out)); err == nil && len(f) == 2 {
		if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			limit = f[0] + ", V8 heap limit " + mb(n)
		}
	}
	opts := os.Getenv("NODE_OPTIONS")
	if opts == "" {
		opts = "unset"
	}
	return fmt.Sprintf("azurite %s (node %s, NODE_OPTIONS %s): %s; keep-alive timeout its default 5 s, the client closing idle connections after %s",
		version, limit, opts, strings.Join(azuriteFlags, " "), idleLimit)
}

func mb(n int64) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(n)/1e6)
}

// printScaleHeader prints the table's head and what its columns mean, and
// what the mixed phase of d does unless d is 0.
func printScaleHeader(w io.Writer, d time.Duration) {
	if d > 0 {
		fmt.Fprintln(w, mixTitle(d))
	}
	fmt.Fprintln(w, "µs/ent: the server's CPU time while loading, per entity; RSS and peak (VmRSS, VmHWM) after loading;")
	fmt.Fprintln(w, "live: the heap after a collection; B/ent: RSS per entity;")
	fmt.Fprintln(w, "logical: the entities' size by the service's formula; disk: the data directory after a clean stop;")
	fmt.Fprintln(w, "stop: SIGTERM to exit; restart: exec to listening with the account loaded (cpu: the server's CPU time until then);")
	fmt.Fprintln(w, "stop peak: the RSS peak during the clean stop (which compacts), against the RSS before it; ' marks figures after the restart")
	fmt.Fprintf(w, "%-20s %9s %8s %6s %9s %9s %9s %6s %9s %9s %6s %6s %6s %8s %6s %9s %9s %9s\n", "server", "entities", "load/s", "µs/ent", "RSS", "peak", "live", "B/ent",
		"logical", "disk", "×log", "stop", "×peak", "restart", "cpu", "RSS'", "peak'", "live'")
}

func printScale(w io.Writer, r scaleRow) {
	fmt.Fprintf(w, "%-20s %9d %8.0f %6.1f %9s %9s %9s %6d %9s", r.server, r.n, float64(r.n)/r.load.Seconds(), float64(r.cpu.Microseconds())/float64(r.n),
		mb(r.after.rss), mb(r.after.peak), mb(r.heap),
		r.after.rss/int64(r.n), mb(r.size))
	if r.restart > 0 {
		fmt.Fprintf(w, " %9s %6.2f %5.1fs %6.2f %7.1fs %5.1fs %9s %9s %9s", mb(r.disk), float64(r.disk)/float64(r.size), r.stop.Seconds(),
			float64(r.stopPeak)/float64(r.after.rss), r.restart.Seconds(),
			r.restartCPU.Seconds(), mb(r.restarted.rss),
			mb(r.restarted.peak), mb(r.restartHeap))
	}
	fmt.Fprintln(w)
	if r.resets > 0 {
		fmt.Fprintf(w, "  the load's batches met %d reset connections: each batch was read back, and sent again only if none of it was stored\n", r.resets)
	}
	if r.mixed != nil {
		printMixed(w, *r.mixed)
	}
}

// cpuSince is the CPU time process pid has used since before.
func cpuSince(pid int, before usage) (time.Duration, error) {
	u, err := readUsage(pid)
	return u.cpu - before.cpu, err
}
