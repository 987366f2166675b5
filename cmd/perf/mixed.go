package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// The mixed phase: mixClients clients, each drawing its operations at
// random over the loaded entities, by shares of 100 — point reads and
// upsert-merges (as the measurement: "mixed reads and merges") and a
// few partition queries of mixQueryMin to scaleRows rows from a random row.
const (
	mixClients  = 16
	mixReads    = 49
	mixMerges   = 49
	mixQueries  = 100 - mixReads - mixMerges
	mixQueryMin = 100
)

// mixKind is the kind of a mixed operation.
type mixKind int

const (
	mixRead mixKind = iota
	mixMerge
	mixQuery
	mixKinds
)

// String names the kind as the printed figures do.
func (k mixKind) String() string { return [...]string{"read", "merge", "query"}[k] }

// mixOp is one mixed operation: entity row of partition part, and for a
// query the rows it asks for from there.
type mixOp struct {
	kind      mixKind
	part, row int
	rows      int
}

// nextMixOp draws an operation over the n entities loadScale stored
// (entity i is row i%scaleRows of partition i/scaleRows).
func nextMixOp(r *rand.Rand, n int) mixOp {
	i := r.IntN(n)
	op := mixOp{part: i / scaleRows, row: i % scaleRows}
	switch k := r.IntN(100); {
	case k < mixReads:
		op.kind = mixRead
	case k < mixReads+mixMerges:
		op.kind = mixMerge
	default:
		// The last partition may hold fewer rows than the others.
		have := min(scaleRows, n-op.part*scaleRows)
		lo := min(mixQueryMin, have)
		op.kind, op.rows = mixQuery, lo+r.IntN(have-lo+1)
		op.row = r.IntN(have - op.rows + 1)
	}
	return op
}

// mixBin is the width of the intervals whose throughput shows whether a
// run of d stayed flat: a minute, or a fifth of a shorter run.
func mixBin(d time.Duration) time.Duration {
	return min(time.Minute, max(d/5, time.Second))
}

// mixStats is what clients did in a mixed phase that began at begin.
type mixStats struct {
	begin  time.Time
	width  time.Duration             // of each bins interval
	lat    [mixKinds][]time.Duration // each operation's latency
	bins   []int                     // operations that ended in each interval
	rows   int                       // rows the queries returned
	resets int                       // connections reset under an operation
}

func newMixStats(begin time.Time, d time.Duration) *mixStats {
	return &mixStats{begin: begin, width: mixBin(d)}
}

// add records an operation started at start that took took.
func (s *mixStats) add(k mixKind, start time.Time, took time.Duration) {
	s.lat[k] = append(s.lat[k], took)
	b := int(start.Add(took).Sub(s.begin) / s.width)
	for len(s.bins) <= b {
		s.bins = append(s.bins, 0)
	}
	s.bins[b]++
}

// merge adds o's operations to s (of the same begin and width).
func (s *mixStats) merge(o *mixStats) {
	for k := range s.lat {
		s.lat[k] = append(s.lat[k], o.lat[k]...)
	}
	for len(s.bins) < len(o.bins) {
		s.bins = append(s.bins, 0)
	}
	for b, n := range o.bins {
		s.bins[b] += n
	}
	s.rows += o.rows
	s.resets += o.resets
}

// mixResult is a mixed phase's figures.
type mixResult struct {
	elapsed      time.Duration
	ops          [mixKinds]int
	p50, p99     time.Duration
	kindP99      [mixKinds]time.Duration
	perBin       []float64 // ops/s in each whole interval
	width        time.Duration
	rows, resets int
	serverCPU    time.Duration // the server's CPU time over the phase
	clientCPU    time.Duration // this process's (the SDK's clients')
	after        memory        // peak: over the phase
	heap         int64         // live heap after it; -1 unknown
}

func (r mixResult) total() int {
	n := 0
	for _, o := range r.ops {
		n += o
	}
	return n
}

// result sums s up for a phase that took elapsed; an interval counts once
// it is whole.
func (s *mixStats) result(elapsed time.Duration) mixResult {
	r := mixResult{elapsed: elapsed, width: s.width, rows: s.rows, resets: s.resets, heap: -1}
	var all []time.Duration
	for k, l := range s.lat {
		r.ops[k] = len(l)
		slices.Sort(l)
		r.kindP99[k] = percentile(l, 99)
		all = append(all, l...)
	}
	slices.Sort(all)
	r.p50, r.p99 = percentile(all, 50), percentile(all, 99)
	for b, n := range s.bins {
		if time.Duration(b+1)*s.width > elapsed {
			break
		}
		r.perBin = append(r.perBin, float64(n)/s.width.Seconds())
	}
	return r
}

// percentile is the p-th percentile of sorted latencies (0 when none).
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[len(sorted)*p/100]
}

// runMixed runs the mixed phase for d on the n entities of table "scale"
// at endpoint; seed fixes each client's draws. The first failure (other
// than a reset connection, which the operation survives by being sent
// again) stops every client.
func runMixed(ctx context.Context, endpoint string, n int, d time.Duration, seed uint64) (mixResult, error) {
	c, _, done, err := scaleClient(endpoint, "scale", mixClients)
	if err != nil {
		return mixResult{}, err
	}
	defer done()
	ctx, cancel := context.WithTimeout(ctx, d+opLimit)
	defer cancel()
	begin := time.Now()
	deadline := begin.Add(d)
	stats := make([]*mixStats, mixClients)
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for cl := range mixClients {
		s := newMixStats(begin, d)
		stats[cl] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(cl)))
			for seq := 0; ctx.Err() == nil && time.Now().Before(deadline); seq++ {
				op := nextMixOp(r, n)
				start := time.Now()
				resets, err := retryResets(ctx, func(ctx context.Context) error {
					octx, ocancel := context.WithTimeout(ctx, opLimit)
					defer ocancel()
					return mixDo(octx, c, op, cl, seq, &s.rows)
				}, func(err error) { logReset(begin, fmt.Sprintf("mixed %s", op.kind), err) })
				s.resets += resets
				if err != nil {
					once.Do(func() {
						first = fmt.Errorf("mixed %s of %s/%s: %w", op.kind, scalePartition(op.part), rowKey(op.row), err)
					})
					cancel()
					return
				}
				s.add(op.kind, start, time.Since(start))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	if first != nil {
		return mixResult{}, first
	}
	for _, s := range stats[1:] {
		stats[0].merge(s)
	}
	return stats[0].result(elapsed), nil
}

// mixDo sends op, client cl's seq-th; a merge writes both into two of the
// entity's properties; a query adds the rows it read to rows.
func mixDo(ctx context.Context, c *aztables.Client, op mixOp, cl, seq int, rows *int) error {
	pk := scalePartition(op.part)
	switch op.kind {
	case mixRead:
		_, err := c.GetEntity(ctx, pk, rowKey(op.row), nil)
		return err
	case mixMerge:
		body := `{"PartitionKey":"` + pk + `","RowKey":"` + rowKey(op.row) + `","Notes":"merged ` + strconv.Itoa(cl) + "-" + strconv.Itoa(seq) +
			`","Visits@odata.type":"Edm.Int64","Visits":"` + strconv.Itoa(seq) + `"}`
		_, err := c.UpsertEntity(ctx, []byte(body), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge})
		return err
	}
	filter := "PartitionKey eq '" + pk + "' and RowKey ge '" + rowKey(op.row) + "' and RowKey lt '" + rowKey(op.row+op.rows) + "'"
	got, err := countPages(ctx, c, filter)
	if err == nil && got != op.rows {
		err = fmt.Errorf("partition query returned %d entities, want %d", got, op.rows)
	}
	*rows += got
	return err
}

// parseMixed reads -scale-mixed: a duration, 0 for no mixed phase.
func parseMixed(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < 0 {
		return 0, errors.New("-scale-mixed: want a duration like 5m, or 0 to skip the mixed phase")
	}
	if d > 0 && d < time.Second {
		return 0, errors.New("-scale-mixed: a mixed phase runs 1s or more")
	}
	return d, nil
}

// mixTitle says what the mixed phase does, for the table's head.
func mixTitle(d time.Duration) string {
	return fmt.Sprintf("mixed: %d clients for %s, each operation drawn at random: %d %% point reads and %d %% upsert-merges "+
		"(2 properties changed) of random entities, %d %% partition queries of %d–%d rows from a random row; "+
		"p99 by kind; peak: the RSS peak during the phase; live: the heap after it; per %s: ops/s in each whole interval",
		mixClients, d, mixReads, mixMerges, mixQueries, mixQueryMin, scaleRows, mixBin(d))
}

// perOp is d per operation in µs, "-" when unknown.
func perOp(d time.Duration, ops int) string {
	if d <= 0 || ops == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(d.Microseconds())/float64(ops))
}

// printMixed prints a mixed phase's line, under its server's row.
func printMixed(w io.Writer, r mixResult) {
	fmt.Fprintf(w, "  mixed %s: %d ops (%d reads, %d merges, %d queries of %d rows in all), %.0f ops/s, p50 %s ms, p99 %s ms (read %s, merge %s, query %s ms); "+
		"CPU µs/op: server %s, client %s; RSS %s, peak %s, live %s; resets %d; ops/s per %s:",
		r.elapsed.Round(time.Second), r.total(), r.ops[mixRead], r.ops[mixMerge], r.ops[mixQuery], r.rows,
		float64(r.total())/r.elapsed.Seconds(), ms(r.p50), ms(r.p99), ms(r.kindP99[mixRead]), ms(r.kindP99[mixMerge]), ms(r.kindP99[mixQuery]),
		perOp(r.serverCPU, r.total()), perOp(r.clientCPU, r.total()),
		mb(r.after.rss), mb(r.after.peak), mb(r.heap), r.resets, r.width)
	for _, v := range r.perBin {
		fmt.Fprintf(w, " %.0f", v)
	}
	fmt.Fprintln(w)
}
