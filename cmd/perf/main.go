// Command perf drives `tableplay serve` (and, side by side, Azurite) through
// the official Go SDK, phase by phase, and prints each server's throughput,
// latency and CPU time per operation read from /proc/<pid>/stat.
//
//	perf -server bin/tableplay [-vs azurite] [-n 5000] [-c 16] [-runs 1] [-phases insert1,read16]
//
// Run it through `make perf` (`make perf PERF_VS=azurite` for the side-by-side
// table); it is never part of `make test`. With -profile DIR the server is
// this program's own copy of tableplay's handler in a child process, which
// writes a CPU and an allocation profile of each phase's measured operations
// to DIR (go tool pprof bin/perf DIR/insert1.cpu).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "perf:", err)
		os.Exit(1)
	}
}

// config is what one invocation asks for.
type config struct {
	server    string // the tableplay binary
	vs        string // "" or "azurite"
	azurite   string // Azurite's table-service entry script
	n         int    // operations of the single-entity phases
	c         int    // clients of the concurrent phases
	runs      int
	phases    map[string]bool // nil: all
	profile   string          // directory for in-process profiles
	profileHz int             // their CPU sampling rate
	scale     []int           // entity counts of the scale benchmark; nil: the phases
	mixed     time.Duration   // the scale benchmark's mixed phase; 0: none
}

func run() error {
	var cfg config
	var phases string
	flag.StringVar(&cfg.server, "server", "bin/tableplay", "the tableplay binary to serve with")
	flag.StringVar(&cfg.vs, "vs", "", `a server to compare with: "azurite" (installed by make perf PERF_VS=azurite)`)
	flag.StringVar(&cfg.azurite, "azurite", "cmd/perf/azurite/node_modules/azurite/dist/src/table/main.js", "Azurite's table-service script")
	flag.IntVar(&cfg.n, "n", 5000, "operations per single-entity phase (the partition query runs n/5, the scan and the batch n/25)")
	flag.IntVar(&cfg.c, "c", 16, "clients of the concurrent phases")
	flag.IntVar(&cfg.runs, "runs", 1, "fresh servers and all phases this many times; the summary gives the spread")
	flag.StringVar(&phases, "phases", "", "comma-separated phase names (default: all): "+strings.Join(phaseNames(), ","))
	flag.StringVar(&cfg.profile, "profile", "", "serve tableplay from a child process that writes DIR/<phase>.cpu and DIR/<phase>.allocs")
	flag.IntVar(&cfg.profileHz, "profile-hz", 100, "CPU samples per second for -profile; a machine delivers only so many (about 250 a second on this project's VM), beyond which pprof's times shrink while its percentages stay right")
	scale := flag.String("scale", "", "instead of the phases, load this many entities (comma-separated: 100k,300k,1M) in memory and with --data, and print memory, disk and restart figures")
	cfg.mixed = 5 * time.Minute
	flag.Func("scale-mixed", "with -scale, after loading tableplay in memory and Azurite: this long of "+strconv.Itoa(mixClients)+
		" clients' random point reads, merges and partition queries (default 5m; 0: none)", func(s string) error {
		var err error
		cfg.mixed, err = parseMixed(s)
		return err
	})
	serveProfiled := flag.String("serve-profile", "", "(the child process of -profile)")
	flag.Parse()
	if *serveProfiled != "" {
		return serveProfiling(*serveProfiled, cfg.profileHz)
	}
	if cfg.n < 25 || cfg.c < 1 || cfg.runs < 1 {
		return fmt.Errorf("need -n ≥ 25, -c ≥ 1, -runs ≥ 1")
	}
	if cfg.vs != "" && cfg.vs != "azurite" {
		return fmt.Errorf("-vs: only azurite is known")
	}
	if phases != "" {
		cfg.phases = map[string]bool{}
		for _, p := range strings.Split(phases, ",") {
			if !knownPhase(p) {
				return fmt.Errorf("unknown phase %q (known: %s)", p, strings.Join(phaseNames(), ","))
			}
			cfg.phases[p] = true
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *scale != "" {
		sizes, err := parseSizes(*scale)
		if err != nil {
			return err
		}
		printScaleHeader(os.Stdout, cfg.mixed)
		for _, n := range sizes {
			if err := scaleRun(ctx, cfg, n, os.Stdout); err != nil {
				return err
			}
		}
		return nil
	}
	var all []runResult
	for r := 1; r <= cfg.runs; r++ {
		res, err := runOnce(ctx, cfg)
		if err != nil {
			return err
		}
		fmt.Printf("\nrun %d of %d\n", r, cfg.runs)
		printRun(os.Stdout, res)
		all = append(all, res)
	}
	if cfg.runs > 1 || cfg.vs != "" {
		printSummary(os.Stdout, all, cfg.vs != "")
	}
	return nil
}

// runOnce starts fresh servers and runs every chosen phase against each, the
// servers taking turns phase by phase so both see the same machine load.
func runOnce(ctx context.Context, cfg config) (runResult, error) {
	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	var tp *server
	var err error
	if cfg.profile != "" {
		tp, err = startProfiled(ctx, cfg.profile, cfg.profileHz)
	} else {
		tp, err = startTableplay(ctx, cfg.server)
	}
	if err != nil {
		return runResult{}, err
	}
	servers = append(servers, tp)
	if cfg.vs == "azurite" {
		az, err := startAzurite(ctx, cfg.azurite)
		if err != nil {
			return runResult{}, err
		}
		servers = append(servers, az)
	}
	var res runResult
	for _, s := range servers {
		res.servers = append(res.servers, s.name)
	}
	for _, p := range allPhases(cfg.n, cfg.c) {
		if cfg.phases != nil && !cfg.phases[p.name] {
			continue
		}
		row := phaseResult{phase: p}
		for _, s := range servers {
			m, err := measure(ctx, s, p)
			if err != nil {
				return runResult{}, fmt.Errorf("%s on %s: %w", p.name, s.name, err)
			}
			row.byServer = append(row.byServer, m)
		}
		res.phases = append(res.phases, row)
	}
	return res, nil
}
