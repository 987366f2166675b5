package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/sdktest"
)

// childEnv makes this test binary run `tableplay` with its arguments instead
// of the tests: the tests start real server processes, and kill them.
const childEnv = "TABLEPLAY_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "tableplay:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	// No test may touch the user's data directory: point the default at an
	// empty one, and fail if anything lands there.
	home, err := os.MkdirTemp("", "tableplay-default-data")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", home)
	code := m.Run()
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		fmt.Fprintf(os.Stderr, "a test wrote to the default data directory (%d entries): pass --in-memory or --data\n", len(entries))
		code = 1
	}
	os.RemoveAll(home)
	os.Exit(code)
}

// child is a `tableplay serve` process.
type child struct {
	cmd    *exec.Cmd
	url    string        // http://127.0.0.1:PORT
	lines  []string      // what it printed on start
	more   <-chan string // what it prints after those
	stderr *lockedBuffer
	exited chan error
}

// lockedBuffer collects a child's stderr.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startChild runs `tableplay serve --addr 127.0.0.1:0 --quiet args…` and
// waits for its start-up lines.
func startChild(t testing.TB, env []string, args ...string) *child {
	t.Helper()
	c, lines := spawn(t, env, args...)
	c.more = lines
	deadline := time.After(20 * time.Second)
	for len(c.lines) < 4 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("server exited during start: %s", c.stderr)
			}
			c.lines = append(c.lines, l)
			if u, ok := strings.CutPrefix(l, "tableplay serving on "); ok {
				c.url = u
			}
		case <-deadline:
			c.cmd.Process.Kill()
			t.Fatalf("server did not start: %q %s", c.lines, c.stderr)
		}
	}
	return c
}

// spawn starts `tableplay serve --addr 127.0.0.1:0 --quiet args…` and
// returns it and the lines it prints, closed when it has exited (its exit
// is then on c.exited).
func spawn(t testing.TB, env []string, args ...string) (*child, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet", "--web", t.TempDir()}, args...)...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	c := &child{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = c.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		c.exited <- cmd.Wait()
		close(lines)
	}()
	return c, lines
}

// account returns the "account:" start-up line.
func (c *child) account() string {
	for _, l := range c.lines {
		if a, ok := strings.CutPrefix(l, "account:"); ok {
			return strings.TrimSpace(a)
		}
	}
	return ""
}

// kill ends the child with SIGKILL: no shutdown code runs.
func (c *child) kill(t testing.TB) {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("killed server did not exit")
	}
}

// stop ends the child with SIGTERM and expects a clean exit.
func (c *child) stop(t testing.TB) {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-c.exited:
		if err != nil {
			t.Fatalf("server exit after SIGTERM: %v %s", err, c.stderr)
		}
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		t.Fatal("server did not stop after SIGTERM")
	}
}

// service is the Go SDK (aztables v1.4.1) pointed at the child with the
// well-known key; no retries, so that each call is one request.
func (c *child) service(t testing.TB) *aztables.ServiceClient {
	t.Helper()
	return sdktest.Service(t, c.url+"/"+rest.WellKnownAccount, rest.WellKnownAccount, rest.WellKnownKey, &http.Client{Timeout: 10 * time.Second})
}
