//go:build unix

// Package workerdtest runs workers/ in workerd for tests: it builds what
// workers/config.capnp loads (the room object's engine and Go's glue, the
// entry Worker) once per test binary, and starts workerd (the pinned npm
// package) on a loopback port with the rooms' storage in a directory of the
// test's. Without node_modules/.bin/workerd a test skips with a line saying
// what to run; under make test (TABLEPLAY_REQUIRE_ALL) it fails.
package workerdtest

import (
	"bytes"
	"cmp"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tableplay/tableplay/internal/need"
)

// Root is the repository's root (this file is two levels below it).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// Bin finds the pinned workerd, or stops the test (a skip, or a failure
// under TABLEPLAY_REQUIRE_ALL).
func Bin(t testing.TB) string {
	t.Helper()
	p := filepath.Join(Root(), "node_modules", ".bin", "workerd")
	if _, err := os.Stat(p); err != nil {
		need.Missing(t, "workerd", fmt.Sprintf("%v: run npm ci to run the workerd tests", err))
	}
	return p
}

// built is workers/ as workerd loads it, in a temporary directory laid out
// as workers/ is (config.capnp, room/, build/), built once per test binary
// and removed by Main when the binary's tests end.
var built struct {
	once sync.Once
	main bool // Main runs the tests, so the directory is removed
	dir  string
	err  error
}

// Main runs a package's tests (call it from TestMain), then the package's
// own cleanups (after), then removes what Build built, about 12 MB a test
// binary.
func Main(m *testing.M, after ...func()) {
	built.main = true
	code := m.Run()
	for _, f := range after {
		f()
	}
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// Build builds workers/ for workerd once and returns the directory whose
// config.capnp to serve.
func Build(t testing.TB) string {
	t.Helper()
	if !built.main {
		t.Fatal("workerdtest: call workerdtest.Main(m) from the package's TestMain, which removes the build")
	}
	built.once.Do(func() { built.dir, built.err = buildInto(Root()) })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

func buildInto(root string) (dir string, err error) {
	if dir, err = os.MkdirTemp("", "tableplay-workers-"); err != nil {
		return "", err
	}
	tmp := dir // the returns below clear dir
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	files, _ := filepath.Glob(filepath.Join(root, "workers", "room", "*.js"))
	files = append(files, filepath.Join(root, "workers", "config.capnp"))
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join(root, "workers"), f)
		b, err := os.ReadFile(f)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		}
		if err != nil {
			return "", err
		}
	}
	build := filepath.Join(dir, "build")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	js := []string{"GOOS=js", "GOARCH=wasm"}
	steps := []struct {
		env  []string
		args []string
	}{
		{js, []string{goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(build, "room.wasm"), "./workers/room/engine"}},
		{nil, []string{goBin, "run", "./scripts/wasmglue", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), filepath.Join(build, "go-glue.js")}},
		{nil, []string{goBin, "run", "github.com/syumai/workers/cmd/workers-assets-gen", "-mode=go", "-o", filepath.Join(build, "entry")}},
		{js, []string{goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(build, "entry", "app.wasm"), "./workers/entry"}},
		{nil, []string{"cp", "workers/entry/worker.mjs", filepath.Join(build, "entry", "worker.mjs")}},
	}
	for _, s := range steps {
		cmd := exec.Command(s.args[0], s.args[1:]...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), s.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(s.args, " "), err, out)
		}
	}
	return dir, nil
}

// Options are a server's settings.
type Options struct {
	// Env is added to workerd's environment: the entry's settings
	// (ROOM_SECRET, ROOM_RPS, …; workers/CONTRACT.md). ROOM_SECRET is a
	// test value unless Env sets it.
	Env []string
	// Site is the directory the entry serves as the site; empty: an empty
	// directory of the test's.
	Site string
	// Data is the rooms' storage; empty: a directory of the test's.
	Data string
	// Config names the config.capnp constant to serve: empty for "config"
	// (the Go entry, as make run-worker serves it), "test" for the room's
	// tests behind workers/room/testentry.js.
	Config string
}

// Server is one workerd serving workers/ on a loopback port.
type Server struct {
	// URL is "http://127.0.0.1:PORT".
	URL  string
	t    testing.TB
	args []string
	env  []string
	data string
	cmd  *exec.Cmd
	log  *lockedBuffer
	done chan struct{}
}

// lockedBuffer is workerd's output, written by exec's copying goroutine
// and read by Log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends workerd's output.
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is the output so far.
func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Start serves workers/ on a free loopback port until the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin, conf := Bin(t), filepath.Join(Build(t), "config.capnp")
	if o.Site == "" {
		o.Site = t.TempDir()
	}
	if o.Data == "" {
		o.Data = t.TempDir()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := append(os.Environ(), "ROOM_SECRET=workerdtest secret")
	s := &Server{URL: "http://" + addr, t: t, env: append(env, o.Env...), data: o.Data,
		args: []string{bin, "serve", conf, cmp.Or(o.Config, "config"), "--socket-addr", "http=" + addr, "--directory-path", "room-data=" + o.Data,
			"--directory-path", "site=" + o.Site}}
	s.start()
	t.Cleanup(s.Stop)
	return s
}

// start runs workerd and waits (at most 20 s) until it accepts connections.
func (s *Server) start() {
	s.t.Helper()
	s.log = &lockedBuffer{}
	s.cmd = exec.Command(s.args[0], s.args[1:]...)
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(s.cmd, s.done)
	addr := strings.TrimPrefix(s.URL, "http://")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		select {
		case <-s.done:
			s.t.Fatalf("workerd exited at start:\n%s", s.log)
		case <-time.After(50 * time.Millisecond):
		}
	}
	s.t.Fatalf("workerd did not listen on %s within 20 s:\n%s", addr, s.log)
}

// Restart starts workerd again on the same port and storage after Kill or
// Stop.
func (s *Server) Restart() {
	s.t.Helper()
	s.start()
}

// Kill ends workerd with SIGKILL and waits for it.
func (s *Server) Kill() {
	if s.done == nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

// Stop ends workerd (SIGTERM; SIGKILL after 5 s) and waits for it: a
// graceful stop takes about 1.4 s.
func (s *Server) Stop() {
	if s.done == nil {
		return // never started
	}
	select {
	case <-s.done:
		return
	default:
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.Kill()
	}
}

// DataDir is the rooms' storage.
func (s *Server) DataDir() string { return s.data }

// Pid is the running workerd's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Log is what workerd has written so far, for a failure's message.
func (s *Server) Log() string { return s.log.String() }
