package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"
)

// runResult is one run: every chosen phase on every server.
type runResult struct {
	servers []string
	phases  []phaseResult
}

// phaseResult is one phase, one measurement per server (in runResult's order).
type phaseResult struct {
	phase    phase
	byServer []measurement
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }

// printRun writes one run's figures, a line per phase and server.
func printRun(w io.Writer, r runResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tserver\tops\tclients\tops/s\tp50 ms\tp99 ms\tCPU µs/op\tfaults/op\t")
	for _, p := range r.phases {
		for i, m := range p.byServer {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%s\t%s\t%.0f\t%.2f\t\n", p.phase.title, r.servers[i], m.ops, p.phase.clients,
				m.perSecond(), ms(m.p50), ms(m.p99), m.cpuPerOp(), m.faultsPerOp())
		}
	}
	tw.Flush()
}

// spread is the median and range of some figures.
type spread struct{ median, min, max float64 }

func spreadOf(xs []float64) spread {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return spread{median: s[len(s)/2], min: s[0], max: s[len(s)-1]}
}

// String writes the median with its unit, and the range when the runs differed.
func (s spread) String(unit string) string {
	if s.min == s.max {
		return fmt.Sprintf("%.0f%s", s.median, unit)
	}
	return fmt.Sprintf("%.0f%s (%.0f–%.0f)", s.median, unit, s.min, s.max)
}

func (s spread) ratio() string {
	if s.min == s.max {
		return fmt.Sprintf("%.1f×", s.median)
	}
	return fmt.Sprintf("%.1f× (%.1f–%.1f)", s.median, s.min, s.max)
}

// printSummary writes server CPU per operation over all runs: the median and
// the range, and with a second server the ratio of its CPU to tableplay's.
func printSummary(w io.Writer, runs []runResult, compare bool) {
	fmt.Fprintf(w, "\nserver CPU µs per operation over %d run(s), from /proc/<pid>/stat (10 ms steps): median (min–max)\n", len(runs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	servers := runs[0].servers
	fmt.Fprint(tw, "phase\t")
	for _, s := range servers {
		fmt.Fprintf(tw, "%s\t", s)
	}
	if compare {
		fmt.Fprintf(tw, "%s / %s\t", servers[1], servers[0])
	}
	fmt.Fprintln(tw)
	for pi, p := range runs[0].phases {
		fmt.Fprintf(tw, "%s\t", p.phase.title)
		for si := range servers {
			var xs []float64
			for _, r := range runs {
				xs = append(xs, r.phases[pi].byServer[si].cpuPerOp())
			}
			fmt.Fprintf(tw, "%s\t", spreadOf(xs).String(""))
		}
		if compare {
			var ratios []float64
			for _, r := range runs {
				m := r.phases[pi].byServer
				ratios = append(ratios, m[1].cpuPerOp()/max(m[0].cpuPerOp(), 0.01))
			}
			fmt.Fprintf(tw, "%s\t", spreadOf(ratios).ratio())
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
