package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tableplay/tableplay/core/h1"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// controlPath is where the profiling child takes "start" and "stop" (outside
// the account's paths, so no Table request can reach it).
const controlPath = "/perf-profile/"

// startProfiled runs this program as the profiling child and returns the
// server with its profile control.
func startProfiled(ctx context.Context, dir string, hz int) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	a, err := startAnnouncing(exec.CommandContext(ctx, self, "-serve-profile", dir, "-profile-hz", strconv.Itoa(hz)), startupLimit, 5*time.Second)
	if err != nil {
		return nil, err
	}
	s := a.server
	s.name = "tableplay (profiled)"
	base := s.endpoint[:len(s.endpoint)-len(rest.WellKnownAccount)-1]
	s.profile = func(action, phase string) error {
		resp, err := http.Post(base+controlPath+action+"?phase="+url.QueryEscape(phase), "text/plain", nil)
		if err != nil {
			return err
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			return fmt.Errorf("profile %s: %s", action, msg)
		}
		return nil
	}
	return s, nil
}

// serveProfiling is the child: tableplay's handler as `tableplay serve`
// builds it, plus the profile control. It runs until SIGTERM or SIGINT.
func serveProfiling(dir string, hz int) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	engine := rest.New(rest.Options{Store: store.New(store.Options{Clock: time.Now}), Credentials: rest.WellKnown(), Clock: time.Now})
	var p profiler
	p.dir, p.hz = dir, hz
	mux := http.NewServeMux()
	mux.Handle("/"+rest.WellKnownAccount+"/", resthttp.New(engine))
	mux.HandleFunc(controlPath, p.control)
	// As tableplay serve: the front answers the account's requests, net/http
	// the rest (here the profile control).
	srv := &h1.Server{API: engine, Fallback: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second},
		Takes: func(p string) bool { return strings.HasPrefix(p, "/"+rest.WellKnownAccount+"/") }}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Printf("tableplay serving on http://%s\n", ln.Addr())
	go srv.Serve(ln)
	<-ctx.Done()
	down, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return srv.Shutdown(down)
}

// profiler writes one phase's CPU profile and allocation profiles (before
// and after, for pprof -diff_base).
type profiler struct {
	mu  sync.Mutex
	dir string
	hz  int // CPU samples per second
	cpu *os.File
}

func (p *profiler) control(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	phase := filepath.Base(r.URL.Query().Get("phase"))
	var err error
	switch r.URL.Path[len(controlPath):] {
	case "start":
		err = p.start(phase)
	case "stop":
		err = p.stop(phase)
	default:
		err = errors.New("unknown action")
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (p *profiler) start(phase string) error {
	if p.cpu != nil {
		return errors.New("a profile is running")
	}
	if err := p.writeAllocs(phase + ".allocs.base"); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(p.dir, phase+".cpu"))
	if err != nil {
		return err
	}
	if p.hz != 100 {
		// pprof starts its profile at 100 Hz unless a rate is already set
		// (it then warns, and keeps this one).
		runtime.SetCPUProfileRate(p.hz)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	p.cpu = f
	return nil
}

func (p *profiler) stop(phase string) error {
	if p.cpu == nil {
		return errors.New("no profile is running")
	}
	pprof.StopCPUProfile()
	err := p.cpu.Close()
	p.cpu = nil
	if err != nil {
		return err
	}
	return p.writeAllocs(phase + ".allocs")
}

func (p *profiler) writeAllocs(name string) error {
	f, err := os.Create(filepath.Join(p.dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}
