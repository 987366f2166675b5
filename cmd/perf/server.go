package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// server is one Table service under test.
type server struct {
	name     string
	endpoint string // the account URL, http://127.0.0.1:PORT/devstoreaccount1
	pid      int    // whose CPU time is read
	stop     func()
	// profile, when set, starts ("start") or ends ("stop") the server's
	// profiles of the named phase.
	profile func(action, phase string) error
	// exit, when set, says how the process ended ("exit status 134",
	// "signal: killed"), or "" while it runs.
	exit func() string
}

// startupLimit bounds how long a server may take to listen.
const startupLimit = 60 * time.Second

// startTableplay runs `tableplay serve` on a free loopback port and reads the
// address it announces.
func startTableplay(ctx context.Context, bin string) (*server, error) {
	web, err := os.MkdirTemp("", "perf-web")
	if err != nil {
		return nil, err
	}
	// In memory, as Azurite runs here (--inMemoryPersistence); and never
	// the user's own data directory.
	a, err := startAnnouncing(exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--quiet", "--in-memory", "--web", web), startupLimit, 5*time.Second)
	if err != nil {
		os.RemoveAll(web)
		return nil, err
	}
	s := a.server
	stop := s.stop
	s.stop = func() { stop(); os.RemoveAll(web) }
	return s, nil
}

// announced is a server process that printed its address.
type announced struct {
	*server
	started time.Duration   // from exec to the announced address
	lines   chan string     // its later stdout lines (dropped while nobody reads)
	exited  <-chan struct{} // closed once it exited
}

// startAnnouncing runs cmd, a server that prints "tableplay serving on
// http://ADDR" once it listens, waiting up to limit for that line; its stop
// gives it grace to end after SIGTERM before it is killed.
func startAnnouncing(cmd *exec.Cmd, limit, grace time.Duration) (*announced, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w (build it with make perf)", cmd.Path, err)
	}
	exited := make(chan struct{})
	lines := make(chan string, 16)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "tableplay serving on http://"); ok {
				addr <- a
				continue
			}
			select {
			case lines <- sc.Text():
			default: // nobody asked: start-up lines
			}
		}
		cmd.Wait() // after the pipe is drained, as exec requires
		close(exited)
	}()
	stop := sync.OnceFunc(func() { stopWithin(cmd, exited, grace) })
	select {
	case a := <-addr:
		srv := &server{name: "tableplay", endpoint: "http://" + a + "/" + rest.WellKnownAccount, pid: cmd.Process.Pid, stop: stop}
		return &announced{server: srv, started: time.Since(begin), lines: lines, exited: exited}, nil
	case <-exited:
		return nil, errors.New("tableplay exited before listening")
	case <-time.After(limit):
		stop()
		return nil, errors.New("tableplay did not announce its address")
	}
}

// azuriteFlags are Azurite's options besides its address.
var azuriteFlags = []string{"--inMemoryPersistence", "--skipApiVersionCheck", "--loose", "--silent", "--disableTelemetry",
	"--disableProductStyleUrl"}

// startAzurite runs Azurite's table service in memory on a free loopback port.
// --loose and --skipApiVersionCheck let the SDK's headers and version in.
// It runs in a scratch folder, in case it writes anything there.
func startAzurite(ctx context.Context, script string) (*server, error) {
	script, err := filepath.Abs(script)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("azurite not installed (%w): run make perf PERF_VS=azurite", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "perf-azurite")
	if err != nil {
		return nil, err
	}
	args := append([]string{script, "--tableHost", "127.0.0.1", "--tablePort", strconv.Itoa(port)}, azuriteFlags...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = work
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() { stopProcess(cmd, exited); os.RemoveAll(work) }
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(startupLimit)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			stop()
			return nil, errors.New("azurite exited before listening")
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, errors.New("azurite did not listen on " + addr)
		}
	}
	exit := func() string {
		select {
		case <-exited:
			return cmd.ProcessState.String()
		default:
			return ""
		}
	}
	return &server{name: "azurite", endpoint: "http://" + addr + "/" + rest.WellKnownAccount, pid: cmd.Process.Pid, stop: stop, exit: exit}, nil
}

// freePort asks the kernel for a loopback port nobody holds.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// stopProcess asks a server to stop, then kills it if it lingers; exited
// closes once the process has been waited for.
func stopProcess(cmd *exec.Cmd, exited <-chan struct{}) { stopWithin(cmd, exited, 5*time.Second) }

// stopWithin is stopProcess waiting up to limit before the kill.
func stopWithin(cmd *exec.Cmd, exited <-chan struct{}, limit time.Duration) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-exited
	}
}

// userHZ is the unit of utime and stime in /proc/<pid>/stat: the kernel
// reports them in USER_HZ, which is 100 on every Linux architecture Go runs on.
const userHZ = 100

// usage is what a process (all its threads) has used so far, from
// /proc/<pid>/stat: user plus system CPU time, and minor page faults (each
// a first touch of memory the kernel must map and zero: on this project's
// virtual machine 1.4 µs for a 4 KiB page and more for a larger one, a
// part of the CPU time worth seeing).
type usage struct {
	cpu    time.Duration
	faults int64
}

func readUsage(pid int) (usage, error) { return readProc(pid, "stat", parseUsage) }

// readProc parses /proc/<pid>/<file>.
func readProc[T any](pid int, file string, parse func(string) (T, error)) (T, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + file)
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(string(b))
}

// parseUsage reads a usage from the text of /proc/<pid>/stat.
func parseUsage(s string) (usage, error) {
	// The command name (field 2) is in parentheses and may hold spaces:
	// count fields from the last ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return usage{}, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); minflt is field 10, utime and stime are
	// fields 14 and 15.
	if len(f) < 13 {
		return usage{}, errors.New("short /proc stat")
	}
	minflt, err0 := strconv.ParseInt(f[7], 10, 64)
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err0 != nil || err1 != nil || err2 != nil {
		return usage{}, errors.New("unreadable /proc stat times")
	}
	return usage{cpu: time.Duration(ut+st) * time.Second / userHZ, faults: minflt}, nil
}
