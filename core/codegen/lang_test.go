package codegen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/op"
)

// TestGoProgramsRun builds every generated Go program in a module that
// requires the repository's aztables and azcore, runs each against a
// loopback server and compares the result with the engine's.
func TestGoProgramsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	t.Parallel()
	clock := fixedClock()
	srv := newServer(t, clock)
	root := repoRoot(t)
	dir := t.TempDir()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module snippets"))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.mod"), string(mod))
	write(t, filepath.Join(dir, "go.sum"), string(sum))
	cases := runCases()
	prep := make([]prepared, len(cases))
	for i, c := range cases {
		prep[i] = prepare(t, c, clock)
		write(t, filepath.Join(dir, "cmd", c.name, "main.go"), codeFor(t, srv, clock, prep[i], "go"))
	}
	// GOFLAGS=-mod=mod lets the module's go.mod settle offline from the
	// module cache (`go mod download` in the repository fills it).
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.name
	}
	program := buildGoPrograms(t, dir, env, names)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := engineOutcome(t, prep[i], clock)
			srv.reset(t, prep[i].before)
			cmd := program(c.name)
			stdout, stderr, failed := run(t, dir, nil, cmd[0], cmd[1:]...)
			compare(t, srv, want, prep[i].typed.Kind, stdout, stderr, failed, reads(prep[i].typed.Kind))
		})
	}
}

// TestJavaScriptRuns runs every generated script with node and the pinned
// @azure/data-tables against a loopback server.
func TestJavaScriptRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	needCommand(t, "node", "install Node 20 (Debian: apt-get install nodejs)")
	modules := needDataTables(t, repoRoot(t))
	eachScript(t, "javascript", ".cjs", func(t *testing.T, dir, file string) ([]string, []string) {
		return []string{"NODE_PATH=" + modules}, []string{"node", file}
	})
}

// eachScript writes each case's program in language to a file of its own
// (name and ext) and, in a parallel subtest with a server of its own,
// runs the command and environment script gives for it (none: the file
// is only checked by script) against the engine's outcome.
func eachScript(t *testing.T, language, ext string, script func(t *testing.T, dir, file string) (env, command []string)) {
	t.Parallel()
	clock := fixedClock()
	dir := t.TempDir()
	for _, c := range runCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, clock)
			p := prepare(t, c, clock)
			file := filepath.Join(dir, c.name+ext)
			write(t, file, codeFor(t, srv, clock, p, language))
			env, command := script(t, dir, file)
			if command == nil {
				return
			}
			want := engineOutcome(t, p, clock)
			srv.reset(t, p.before)
			stdout, stderr, failed := run(t, dir, env, command[0], command[1:]...)
			compare(t, srv, want, p.typed.Kind, stdout, stderr, failed, reads(p.typed.Kind))
		})
	}
}

// TestCurlRuns runs every generated curl script with sh against a loopback
// server; a query's script reads one page, compared with the engine's first.
func TestCurlRuns(t *testing.T) {
	needCommand(t, "curl", "install curl (Debian: apt-get install curl)")
	clock := fixedClock()
	srv := newServer(t, clock)
	dir := t.TempDir()
	for _, c := range runCases() {
		t.Run(c.name, func(t *testing.T) {
			p := prepare(t, c, clock)
			file := filepath.Join(dir, c.name+".sh")
			write(t, file, codeFor(t, srv, clock, p, "curl"))
			want := engineOutcome(t, p, clock)
			srv.reset(t, p.before)
			stdout, stderr, failed := run(t, dir, nil, "sh", file)
			kind := p.typed.Kind
			if kind == op.Batch && want.failed {
				// A failed changeset is still a 202 whose body names the error.
				if failed || !strings.Contains(stdout, want.code) {
					t.Fatalf("batch answer does not name %s:\n%s%s", want.code, stdout, stderr)
				}
				failed = true
			}
			if len(want.pages) > 1 {
				want.pages = want.pages[:1]
			}
			compare(t, srv, want, kind, stdout, stderr, failed, false)
			if reads(kind) && !want.failed {
				if got := curlRead(t, stdout, kind); fmt.Sprint(got) != fmt.Sprint(want.pages) {
					t.Errorf("read: got %v, want %v\n%s", got, want.pages, stdout)
				}
			}
		})
	}
}

// curlRead reads the keys or table names from a response (with headers when
// the script dumps them).
func curlRead(t *testing.T, stdout string, kind op.Kind) [][]string {
	t.Helper()
	if i := strings.Index(stdout, "\r\n\r\n"); i >= 0 {
		stdout = stdout[i+4:]
	}
	var body struct {
		Value        []map[string]any `json:"value"`
		TableName    string           `json:"TableName"`
		PartitionKey string           `json:"PartitionKey"`
		RowKey       string           `json:"RowKey"`
	}
	if err := json.Unmarshal([]byte(stdout), &body); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, stdout)
	}
	page := []string{}
	switch kind {
	case op.GetTable:
		page = append(page, body.TableName)
	case op.Get:
		page = append(page, body.PartitionKey+" "+body.RowKey)
	case op.ListTables:
		for _, v := range body.Value {
			page = append(page, fmt.Sprint(v["TableName"]))
		}
	case op.Query:
		for _, v := range body.Value {
			page = append(page, fmt.Sprint(v["PartitionKey"], " ", v["RowKey"]))
		}
	}
	return [][]string{page}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPythonCompilesAndRuns compiles every generated script with
// py_compile and, where Debian's python3-azure (azure-data-tables) is
// installed, runs it against a loopback server.
func TestPythonCompilesAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python")
	}
	py := needCommand(t, "python3", "install Python 3 (Debian: apt-get install python3)")
	// Debian's package installs for Debian's interpreter.
	runner := ""
	if exec.Command("/usr/bin/python3", "-c", "import azure.data.tables").Run() == nil {
		runner = "/usr/bin/python3"
	} else if exec.Command("dpkg", "-s", "python3-azure").Run() == nil {
		t.Fatal("python3-azure is installed but /usr/bin/python3 cannot import azure.data.tables")
	} else {
		t.Log("python3-azure is not installed: the scripts are compiled, not run (apt-get install python3-azure runs them; .ci/run installs it)")
	}
	eachScript(t, "python", ".py", func(t *testing.T, dir, file string) ([]string, []string) {
		if out, errOut, failed := run(t, dir, nil, py, "-m", "py_compile", file); failed {
			t.Fatalf("py_compile: %s%s", out, errOut)
		}
		if runner == "" {
			return nil, nil
		}
		return nil, []string{runner, file}
	})
}
