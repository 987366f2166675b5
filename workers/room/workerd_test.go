//go:build unix

package room_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/tableplay/tableplay/workers/workerdtest"
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

// workerd is one workerd (workers/workerdtest) serving the rooms behind
// the test entry (config.capnp's "test") on a loopback port with the rooms'
// storage in a directory of the test's.
type workerd struct {
	t testing.TB
	s *workerdtest.Server
}

// startWorkerd starts workerd on a free port with a fresh data directory.
func startWorkerd(t testing.TB) *workerd {
	t.Helper()
	return &workerd{t: t, s: workerdtest.Start(t, workerdtest.Options{Config: "test"})}
}

// start runs workerd again, on the same port and storage, after kill.
func (w *workerd) start() { w.s.Restart() }

// kill ends workerd with SIGKILL and waits for it.
func (w *workerd) kill() { w.s.Kill() }

// pid is the running workerd's process id.
func (w *workerd) pid() int { return w.s.Pid() }

func (w *workerd) url() string { return w.s.URL }

// output is what workerd has written so far.
func (w *workerd) output() string { return w.s.Log() }

// dataDir is the rooms' storage.
func (w *workerd) dataDir() string { return w.s.DataDir() }

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
		w.t.Fatalf("%v\n%s", err, w.s.Log())
	}
	return r
}
