//go:build unix

package room_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the room object in workerd, the pinned npm package
// (node_modules/.bin/workerd), behind the test entry of workers/config.capnp.
// Without it they skip with a line saying what to run; under make test
// (TABLEPLAY_REQUIRE_ALL=1) they fail.

// repoRoot is the module's root, two levels up.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// workerdPath finds the pinned workerd, or skips (fails under make test).
func workerdPath(t testing.TB) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "node_modules", ".bin", "workerd")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("TABLEPLAY_REQUIRE_ALL") != "" {
			t.Fatalf("workerd is missing (%v): run npm ci", err)
		}
		t.Skipf("workerd is missing (%v): run npm ci to run the room tests", err)
	}
	return p
}

// built is workers/ as workerd loads it, in a temporary directory: the
// config, the object's JavaScript, and the engine built for js/wasm with
// Go's glue. Built once per test binary.
var built struct {
	once sync.Once
	dir  string
	err  error
}

func buildWorker(t testing.TB) string {
	t.Helper()
	root := repoRoot(t)
	built.once.Do(func() {
		built.dir, built.err = buildInto(root)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

func buildInto(root string) (string, error) {
	dir, err := os.MkdirTemp("", "tableplay-worker-")
	if err != nil {
		return "", err
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, sub := range []string{"room", "build"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return "", err
		}
	}
	copies := map[string]string{"workers/config.capnp": "config.capnp"}
	for _, f := range []string{"room.js", "testentry.js"} {
		copies["workers/room/"+f] = "room/" + f
	}
	for from, to := range copies {
		b, err := os.ReadFile(filepath.Join(root, from))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			return "", err
		}
	}
	steps := [][]string{
		{goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "build", "room.wasm"), "./workers/room/engine"},
		{goBin, "run", "./scripts/wasmglue", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "build", "go-glue.js")},
	}
	for i, args := range steps {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		cmd.Env = os.Environ()
		if i == 0 {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir, nil
}

// workerd is one workerd process serving the built worker on a loopback
// port with the rooms' storage in data.
type workerd struct {
	t    testing.TB
	bin  string
	conf string
	data string
	addr string
	cmd  *exec.Cmd
	log  *bytes.Buffer
	done chan struct{}
}

// startWorkerd starts workerd on a free port with a fresh data directory.
func startWorkerd(t testing.TB) *workerd {
	t.Helper()
	w := &workerd{t: t, bin: workerdPath(t), conf: filepath.Join(buildWorker(t), "config.capnp"), data: t.TempDir()}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.addr = ln.Addr().String()
	ln.Close()
	w.start()
	t.Cleanup(w.stop)
	return w
}

// start runs workerd and waits (at most 20 s) until it answers.
func (w *workerd) start() {
	w.t.Helper()
	w.log = &bytes.Buffer{}
	w.cmd = exec.Command(w.bin, "serve", w.conf, "--socket-addr", "http="+w.addr, "--directory-path", "room-data="+w.data)
	w.cmd.Stdout, w.cmd.Stderr = w.log, w.log
	w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := w.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(w.cmd, w.done)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", w.addr, time.Second); err == nil {
			c.Close()
			return
		}
		select {
		case <-w.done:
			w.t.Fatalf("workerd exited at start:\n%s", w.log)
		case <-time.After(50 * time.Millisecond):
		}
	}
	w.t.Fatalf("workerd did not listen on %s within 20 s:\n%s", w.addr, w.log)
}

// kill ends workerd with SIGKILL and waits for it.
func (w *workerd) kill() {
	syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	<-w.done
}

// stop ends workerd (SIGTERM, then SIGKILL after 5 s).
func (w *workerd) stop() {
	if w.cmd == nil {
		return
	}
	select {
	case <-w.done:
		return
	default:
	}
	syscall.Kill(-w.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		w.kill()
	}
}

func (w *workerd) url() string { return "http://" + w.addr }

// room is what POST /rooms answers.
type room struct {
	Account          string `json:"account"`
	Key              string `json:"key"`
	Endpoint         string `json:"endpoint"`
	ConnectionString string `json:"connectionString"`
	Expires          string `json:"expires"`
}

// createRoom asks the entry for a new room; opts is POST /rooms' body.
func (w *workerd) createRoom(opts map[string]any) (room, error) {
	body, _ := json.Marshal(opts)
	resp, err := http.Post(w.url()+"/rooms", "application/json", bytes.NewReader(body))
	if err != nil {
		return room{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusCreated {
		return room{}, fmt.Errorf("POST /rooms: %d %s", resp.StatusCode, b)
	}
	var r room
	if err := json.Unmarshal(b, &r); err != nil {
		return room{}, err
	}
	if r.Account == "" || r.Key == "" {
		return room{}, errors.New("POST /rooms: no account or key in " + string(b))
	}
	return r, nil
}

func (w *workerd) mustRoom(opts map[string]any) room {
	w.t.Helper()
	r, err := w.createRoom(opts)
	if err != nil {
		w.t.Fatalf("%v\n%s", err, w.log)
	}
	return r
}
