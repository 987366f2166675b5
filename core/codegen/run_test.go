package codegen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// outcome is what an operation did: whether it failed (and the service's
// error code), the account after it, and what a read returned, page by page
// ("PK RK" for entities, names for tables) with each entity's property names.
type outcome struct {
	failed bool
	code   string
	after  []byte
	pages  [][]string
	props  map[string][]string
}

// engineOutcome runs the operation in the engine, following continuations
// as the SDK pagers do.
func engineOutcome(t *testing.T, p prepared, clock func() time.Time) outcome {
	t.Helper()
	s := store.New(store.Options{Clock: clock})
	if err := s.Restore(p.before); err != nil {
		t.Fatal(err)
	}
	out := outcome{props: map[string][]string{}}
	o := p.typed
	addEntities := func(es []*entity.Entity, sel []string) {
		var page []string
		for _, e := range es {
			k := e.PartitionKey + " " + e.RowKey
			page = append(page, k)
			names := []string{}
			for _, prop := range e.Properties {
				if sel == nil || slices.Contains(sel, prop.Name) {
					names = append(names, prop.Name)
				}
			}
			slices.Sort(names)
			out.props[k] = names
		}
		out.pages = append(out.pages, page)
	}
	for range 100 {
		r, f := op.Execute(s, o, nil)
		if f != nil {
			out.failed, out.code = true, string(f.Err.Code)
			break
		}
		switch o.Kind {
		case op.GetTable:
			out.pages = append(out.pages, []string{r.Table})
		case op.Get:
			addEntities([]*entity.Entity{r.Entity}, r.Select)
		case op.ListTables:
			out.pages = append(out.pages, r.Tables.Names)
			if r.Tables.NextTableName != "" {
				o.Query.NextTableName = r.Tables.NextTableName
				continue
			}
		case op.Query:
			addEntities(r.Page.Entities, r.Select)
			if r.Page.More() {
				o.Query.NextPartitionKey, o.Query.NextRowKey = r.Page.NextPartitionKey, r.Page.NextRowKey
				continue
			}
		}
		break
	}
	out.after = s.Snapshot()
	return out
}

// printed reads what a generated Go or JavaScript program printed: "page N:"
// lines open pages, "entity PK RK" and "table NAME" lines fill them, and
// "  name = value" lines name an entity's properties.
func printed(stdout string) ([][]string, map[string][]string) {
	var pages [][]string
	props := map[string][]string{}
	last := ""
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "page "):
			pages = append(pages, []string{})
		case strings.HasPrefix(l, "entity "), strings.HasPrefix(l, "table "):
			if len(pages) == 0 {
				pages = append(pages, []string{})
			}
			item := strings.SplitN(l, " ", 2)[1]
			pages[len(pages)-1] = append(pages[len(pages)-1], item)
			if strings.HasPrefix(l, "entity ") {
				last = item
				props[last] = []string{}
			}
		case strings.HasPrefix(l, "  ") && strings.Contains(l, " = ") && last != "":
			props[last] = append(props[last], strings.TrimSpace(strings.SplitN(l, " = ", 2)[0]))
		}
	}
	for k := range props {
		slices.Sort(props[k])
	}
	return pages, props
}

// server is a loopback server whose account the test replaces before each
// run, so that each starts from the same state as the engine's.
type server struct {
	clock    func() time.Time
	store    *store.Store
	handler  atomic.Pointer[rest.Handler]
	endpoint string
}

func newServer(t *testing.T, clock func() time.Time) *server {
	s := &server{clock: clock}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { resthttp.New(s.handler.Load()).ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	s.endpoint = srv.URL + "/" + rest.WellKnownAccount
	return s
}

// reset gives the server a fresh account restored from a snapshot.
func (s *server) reset(t *testing.T, snapshot []byte) {
	t.Helper()
	s.store = store.New(store.Options{Clock: s.clock})
	if err := s.store.Restore(snapshot); err != nil {
		t.Fatal(err)
	}
	s.handler.Store(rest.New(rest.Options{Store: s.store, Credentials: rest.WellKnown(), Clock: s.clock}))
}

// run executes a command with a bound on its time.
func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, failed bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v: timed out", name, args)
	}
	if err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatalf("%s %v: %v", name, args, err)
		}
	}
	return o.String(), e.String(), err != nil
}

// codeFor asks the playground API for a case's code, pointed at the server.
func codeFor(t *testing.T, srv *server, clock func() time.Time, p prepared, language string) string {
	t.Helper()
	api := &play.API{Base: srv.endpoint, Clock: clock, Creds: rest.WellKnown()}
	var s struct {
		Code  string   `json:"code"`
		Notes []string `json:"notes"`
		Error string   `json:"error"`
	}
	if err := json.Unmarshal(api.CodeFor(p.opJSON, language, srv.endpoint), &s); err != nil || s.Error != "" || s.Code == "" {
		t.Fatalf("codeFor %s: %v %q", language, err, s.Error)
	}
	return s.Code
}

// compare checks a program's run against the engine's outcome.
func compare(t *testing.T, srv *server, want outcome, kind op.Kind, stdout, stderr string, failed, reads bool) {
	t.Helper()
	if failed != want.failed {
		t.Fatalf("program failed=%v, engine failed=%v (%s)\nstdout:\n%s\nstderr:\n%s", failed, want.failed, want.code, stdout, stderr)
	}
	if failed && kind != op.GetTable && !strings.Contains(stdout+stderr, want.code) {
		t.Errorf("the failure does not name %s:\nstdout:\n%s\nstderr:\n%s", want.code, stdout, stderr)
	}
	if got := srv.store.Snapshot(); !bytes.Equal(sortedProperties(t, got), sortedProperties(t, want.after)) {
		t.Errorf("account after the program differs from the engine's:\n got %s\nwant %s\nstdout:\n%s\nstderr:\n%s", got, want.after, stdout, stderr)
	}
	if reads && !want.failed {
		pages, props := printed(stdout)
		if fmt.Sprint(pages) != fmt.Sprint(want.pages) {
			t.Errorf("pages: got %v, want %v\nstdout:\n%s", pages, want.pages, stdout)
		}
		if (kind == op.Get || kind == op.Query) && fmt.Sprint(props) != fmt.Sprint(want.props) {
			t.Errorf("properties: got %v, want %v\nstdout:\n%s", props, want.props, stdout)
		}
	}
}

func reads(k op.Kind) bool {
	return k == op.Get || k == op.Query || k == op.GetTable || k == op.ListTables
}

// repoRoot is the module root, two levels up from this package.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// sortedProperties orders each entity's properties by name in a snapshot:
// the order a client sends them in is not data (a Go map has none).
func sortedProperties(t *testing.T, snapshot []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(snapshot, &doc); err != nil {
		t.Fatal(err)
	}
	tables, _ := doc["tables"].([]any)
	for _, tb := range tables {
		ents, _ := tb.(map[string]any)["entities"].([]any)
		for _, e := range ents {
			props, _ := e.(map[string]any)["properties"].([]any)
			slices.SortFunc(props, func(a, b any) int {
				return strings.Compare(fmt.Sprint(a.([]any)[0]), fmt.Sprint(b.([]any)[0]))
			})
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
