package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/rest"
)

// sasOptions point code at srv with an account SAS and no key, as for a
// room link or a storage account reached with a SAS.
func sasOptions(srv *server, clock func() time.Time) codegen.Options {
	now := clock()
	s := rest.SAS{Account: true, Version: "2019-02-02", Services: "t", ResourceTypes: "sco", Permissions: "rwdlacu",
		Start: now.Add(-time.Hour).Format("2006-01-02T15:04:05Z"), Expiry: now.Add(time.Hour).Format("2006-01-02T15:04:05Z")}
	s.Signature = rest.WellKnown().SignSAS(s)
	return codegen.Options{Endpoint: srv.endpoint, SAS: s.Encode(), SASOnly: true}
}

// sasCases are the cases the SAS programs run: a write, a read, a batch.
func sasCases() []runCase {
	var out []runCase
	for _, c := range runCases() {
		switch c.name {
		case "insert", "queryAllTypes", "batch":
			out = append(out, c)
		}
	}
	return out
}

// TestSASProgramsRun runs the JavaScript, Python, curl and Go programs generated
// for an endpoint reached with a SAS alone (no key anywhere in them)
// against a loopback server, as a reader would paste and run them.
func TestSASProgramsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	needCommand(t, "node", "install Node 20 (Debian: apt-get install nodejs)")
	needCommand(t, "curl", "install curl (Debian: apt-get install curl)")
	root := repoRoot(t)
	modules := needDataTables(t, root)
	clock := fixedClock()
	srv := newServer(t, clock)
	opt := sasOptions(srv, clock)
	dir := t.TempDir()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.mod"), string(regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module snippets"))))
	write(t, filepath.Join(dir, "go.sum"), string(sum))
	cases := sasCases()
	prep := make([]prepared, len(cases))
	for i, c := range cases {
		prep[i] = prepare(t, c, clock)
		for lang, file := range map[string]string{codegen.JavaScript: c.name + ".cjs", codegen.Curl: c.name + ".sh", codegen.Python: c.name + ".py", codegen.Go: filepath.Join("cmd", c.name, "main.go")} {
			s, err := codegen.For(prep[i].typed, lang, opt)
			if err != nil {
				t.Fatal(err)
			}
			if regexp.MustCompile(`AccountKey|Eby8vd`).MatchString(s.Code) {
				t.Fatalf("%s code for a SAS carries a key:\n%s", lang, s.Code)
			}
			write(t, filepath.Join(dir, file), s.Code)
		}
	}
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.name
	}
	program := buildGoPrograms(t, dir, env, names)
	for i, c := range cases {
		want := engineOutcome(t, prep[i], clock)
		kind := prep[i].typed.Kind
		t.Run(c.name+"/javascript", func(t *testing.T) {
			srv.reset(t, prep[i].before)
			stdout, stderr, failed := run(t, dir, []string{"NODE_PATH=" + modules}, "node", filepath.Join(dir, c.name+".cjs"))
			compare(t, srv, want, kind, stdout, stderr, failed, reads(kind))
		})
		t.Run(c.name+"/go", func(t *testing.T) {
			srv.reset(t, prep[i].before)
			cmd := program(c.name)
			stdout, stderr, failed := run(t, dir, nil, cmd[0], cmd[1:]...)
			compare(t, srv, want, kind, stdout, stderr, failed, reads(kind))
		})
		t.Run(c.name+"/python", func(t *testing.T) {
			if exec.Command("/usr/bin/python3", "-c", "import azure.data.tables").Run() != nil {
				t.Skip("python3-azure is not installed (apt-get install python3-azure)")
			}
			srv.reset(t, prep[i].before)
			stdout, stderr, failed := run(t, dir, nil, "/usr/bin/python3", filepath.Join(dir, c.name+".py"))
			compare(t, srv, want, kind, stdout, stderr, failed, reads(kind))
		})
		t.Run(c.name+"/curl", func(t *testing.T) {
			srv.reset(t, prep[i].before)
			stdout, stderr, failed := run(t, dir, nil, "sh", filepath.Join(dir, c.name+".sh"))
			w := want
			if len(w.pages) > 1 {
				w.pages = w.pages[:1]
			}
			compare(t, srv, w, kind, stdout, stderr, failed, false)
		})
	}
}
