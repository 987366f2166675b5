package main

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
)

// measurement is one phase on one server.
type measurement struct {
	ops      int
	elapsed  time.Duration
	cpu      time.Duration // the server's user+system time over the phase
	faults   int64         // the server's minor page faults over the phase
	p50, p99 time.Duration
}

func (m measurement) perSecond() float64 { return float64(m.ops) / m.elapsed.Seconds() }

// cpuPerOp is server CPU microseconds per operation.
func (m measurement) cpuPerOp() float64 { return float64(m.cpu.Microseconds()) / float64(m.ops) }

// faultsPerOp is the server's minor page faults per operation.
func (m measurement) faultsPerOp() float64 { return float64(m.faults) / float64(m.ops) }

// opLimit bounds one operation, so a stuck server fails the run.
const opLimit = 2 * time.Minute

// measure prepares the phase's table on s, then runs its operations and
// reads the server's CPU time around them.
func measure(ctx context.Context, s *server, p phase) (measurement, error) {
	cred, err := aztables.NewSharedKeyCredential(rest.WellKnownAccount, rest.WellKnownKey)
	if err != nil {
		return measurement{}, err
	}
	// One connection per client, kept alive: the phase measures requests,
	// not TCP handshakes.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: p.clients + 4, MaxIdleConnsPerHost: p.clients + 4}}
	defer hc.CloseIdleConnections()
	svc, err := aztables.NewServiceClientWithSharedKey(s.endpoint, cred, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: hc,
		Retry:     policy.RetryOptions{MaxRetries: -1}, // a failure fails the phase
	}})
	if err != nil {
		return measurement{}, err
	}
	if _, err := svc.CreateTable(ctx, p.name, nil); err != nil {
		return measurement{}, err
	}
	c := svc.NewClient(p.name)
	if p.setup != nil {
		if err := p.setup(ctx, c); err != nil {
			return measurement{}, err
		}
	}
	// A warm-up of a fifth as many operations (on their own keys) lets
	// Azurite's JIT and tableplay's pools settle before the clock starts.
	if err := runOps(ctx, c, p, p.ops, p.ops+max(p.ops/5, 1), nil); err != nil {
		return measurement{}, fmt.Errorf("warm-up: %w", err)
	}
	if s.profile != nil {
		if err := s.profile("start", p.name); err != nil {
			return measurement{}, err
		}
	}
	before, err := readUsage(s.pid)
	if err != nil {
		return measurement{}, err
	}
	lat := make([]time.Duration, p.ops)
	start := time.Now()
	err = runOps(ctx, c, p, 0, p.ops, lat)
	elapsed := time.Since(start)
	after, cerr := readUsage(s.pid)
	if cerr != nil {
		return measurement{}, cerr
	}
	if s.profile != nil {
		if err := s.profile("stop", p.name); err != nil {
			return measurement{}, err
		}
	}
	if err != nil {
		return measurement{}, err
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return measurement{ops: p.ops, elapsed: elapsed, cpu: after.cpu - before.cpu, faults: after.faults - before.faults,
		p50: lat[len(lat)/2], p99: lat[len(lat)*99/100]}, nil
}

// runOps runs operations from ≤ i < to of p, shared among p.clients
// goroutines, and records operation i's latency in lat[i-from] when lat is
// not nil. The first failure stops every client.
func runOps(ctx context.Context, c *aztables.Client, p phase, from, to int, lat []time.Duration) error {
	var next atomic.Int64
	next.Store(int64(from))
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < p.clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= to {
					return
				}
				octx, cancel := context.WithTimeout(ctx, opLimit)
				t := time.Now()
				err := p.op(octx, c, i)
				if lat != nil {
					lat[i-from] = time.Since(t)
				}
				cancel()
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("operation %d: %w", i, err) })
					next.Store(int64(to)) // the other clients stop too
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}
