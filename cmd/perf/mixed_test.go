package main

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// TestNextMixOp: the draws keep the stated shares, stay on stored keys,
// and a query asks for 100 to 1,000 rows inside its partition (fewer where
// the last partition holds fewer).
func TestNextMixOp(t *testing.T) {
	for _, n := range []int{1000000, 12300, 100} {
		r := rand.New(rand.NewPCG(1, 2))
		var kinds [mixKinds]int
		const draws = 100000
		for range draws {
			op := nextMixOp(r, n)
			kinds[op.kind]++
			have := min(scaleRows, n-op.part*scaleRows)
			if op.part < 0 || op.row < 0 || op.row >= have {
				t.Fatalf("n=%d: %+v is not a stored entity", n, op)
			}
			if op.kind != mixQuery {
				continue
			}
			if op.rows < min(mixQueryMin, have) || op.rows > have || op.row+op.rows > have {
				t.Fatalf("n=%d: query %+v outside its partition of %d rows", n, op, have)
			}
		}
		for k, want := range [mixKinds]int{mixReads, mixMerges, mixQueries} {
			if got := float64(kinds[k]) * 100 / draws; got < float64(want)-1 || got > float64(want)+1 {
				t.Errorf("n=%d: %s %.1f %%, want %d %%", n, mixKind(k), got, want)
			}
		}
	}
}

// TestMixBin: a minute for runs of 5 minutes and more, a fifth of a
// shorter one, never under a second.
func TestMixBin(t *testing.T) {
	for d, want := range map[time.Duration]time.Duration{5 * time.Minute: time.Minute, 20 * time.Minute: time.Minute,
		30 * time.Second: 6 * time.Second, 2 * time.Second: time.Second} {
		if got := mixBin(d); got != want {
			t.Errorf("mixBin(%s) = %s, want %s", d, got, want)
		}
	}
}

// TestMixStats: clients' records merge; percentiles come from all kinds;
// each whole interval gives its ops/s, a partial last one none.
func TestMixStats(t *testing.T) {
	begin := time.Unix(1000, 0)
	a, b := newMixStats(begin, 10*time.Second), newMixStats(begin, 10*time.Second)
	// 2 s intervals: a ends 3 ops in the first, b 1 in the first and 2 in
	// the third; one op ends in the sixth, which is not whole at 11 s.
	a.add(mixRead, begin, time.Millisecond)
	a.add(mixRead, begin.Add(500*time.Millisecond), 2*time.Millisecond)
	a.add(mixMerge, begin.Add(time.Second), 3*time.Millisecond)
	b.add(mixQuery, begin.Add(1500*time.Millisecond), 400*time.Millisecond)
	b.add(mixMerge, begin.Add(4*time.Second), 4*time.Millisecond)
	b.add(mixMerge, begin.Add(5*time.Second), 5*time.Millisecond)
	b.add(mixRead, begin.Add(10*time.Second), 6*time.Millisecond)
	a.rows, b.rows, a.resets, b.resets = 10, 250, 1, 2
	a.merge(b)
	r := a.result(11 * time.Second)
	if r.ops != [mixKinds]int{3, 3, 1} || r.total() != 7 || r.rows != 260 || r.resets != 3 {
		t.Fatalf("ops %v, rows %d, resets %d", r.ops, r.rows, r.resets)
	}
	if r.p50 != 4*time.Millisecond || r.p99 != 400*time.Millisecond || r.kindP99[mixMerge] != 5*time.Millisecond {
		t.Errorf("p50 %s p99 %s merge p99 %s", r.p50, r.p99, r.kindP99[mixMerge])
	}
	want := []float64{2, 0, 1, 0, 0}
	if len(r.perBin) != len(want) {
		t.Fatalf("per interval %v, want %v", r.perBin, want)
	}
	for i := range want {
		if r.perBin[i] != want[i] {
			t.Fatalf("per interval %v, want %v", r.perBin, want)
		}
	}
}

// TestParseMixed: -scale-mixed takes a duration of a second or more, or 0
// to skip the phase.
func TestParseMixed(t *testing.T) {
	for s, want := range map[string]time.Duration{"5m": 5 * time.Minute, "0": 0, "90s": 90 * time.Second, " 1m30s ": 90 * time.Second} {
		if got, err := parseMixed(s); err != nil || got != want {
			t.Errorf("%q: %s, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "5", "-1m", "x", "500ms", "1y"} {
		if got, err := parseMixed(bad); err == nil {
			t.Errorf("%q read as %s", bad, got)
		}
	}
}

// startEngine serves a fresh in-memory tableplay engine in this process;
// wrap, when not nil, stands in front of it.
func startEngine(t *testing.T, wrap func(h http.Handler) http.Handler) string {
	t.Helper()
	engine := rest.New(rest.Options{Store: store.New(store.Options{Clock: time.Now}), Credentials: rest.WellKnown(), Clock: time.Now})
	var h http.Handler = resthttp.New(engine)
	if wrap != nil {
		h = wrap(resthttp.New(engine))
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/" + rest.WellKnownAccount
}

// TestRunMixed: against a real engine, every operation of a short mixed
// phase succeeds and is counted once, the queries read what they asked
// for, and the merges are stored.
func TestRunMixed(t *testing.T) {
	endpoint := startEngine(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const n = 2300
	l, err := loadScale(ctx, endpoint, n)
	if err != nil || l.resets != 0 || l.size <= 0 {
		t.Fatalf("load: %+v, %v", l, err)
	}
	r, err := runMixed(ctx, endpoint, n, 2*time.Second, 7)
	if err != nil {
		t.Fatal(err)
	}
	if r.total() == 0 || r.elapsed < 2*time.Second || r.resets != 0 || len(r.perBin) != 2 {
		t.Fatalf("%+v", r)
	}
	binned := 0
	for _, v := range r.perBin {
		binned += int(v * r.width.Seconds())
	}
	if binned > r.total() {
		t.Errorf("%d ops in whole intervals, %d in all", binned, r.total())
	}
	if q := r.ops[mixQuery]; r.rows < q*mixQueryMin || r.rows > q*scaleRows {
		t.Errorf("%d queries read %d rows", q, r.rows)
	}
	c, _, done, err := scaleClient(endpoint, "scale", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	merged, err := countPages(ctx, c, "Notes ge 'merged ' and Notes lt 'merged.'")
	if err != nil || merged == 0 || merged > r.ops[mixMerge] {
		t.Errorf("%d entities merged by %d merges (%v)", merged, r.ops[mixMerge], err)
	}
}
