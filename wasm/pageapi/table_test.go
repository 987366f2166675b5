package pageapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/play"
)

var at = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// newEnv is an Env over fresh accounts whose lesson sessions hear of
// every change, as the browser build wires them.
func newEnv() *Env {
	var env *Env
	accounts := play.NewAccounts(play.AccountsOptions{
		Clock:         func() time.Time { return at },
		Base:          func(name string) string { return "http://h/" + name },
		OnChange:      func(name string) { env.Changed(name) },
		AllowUnsigned: true,
	})
	env = New(accounts, func() time.Time { return at })
	return env
}

// row is the row with the key.
func row(t *testing.T, key string) *Func {
	t.Helper()
	for i := range Funcs {
		if Funcs[i].Key() == key {
			return &Funcs[i]
		}
	}
	t.Fatalf("no row %q", key)
	return nil
}

// invoke calls the row with the key and decodes a JSON answer.
func invoke(t *testing.T, env *Env, key string, args ...any) map[string]any {
	t.Helper()
	out := env.Invoke(row(t, key), args)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%s: %q is not a JSON object: %v", key, out, err)
	}
	return m
}

func TestRowsAreWhole(t *testing.T) {
	keys := map[string]bool{}
	for _, f := range Funcs {
		if keys[f.Key()] {
			t.Errorf("%s: two rows share the key", f.Key())
		}
		keys[f.Key()] = true
		if f.Run == nil {
			t.Errorf("%s: no function", f.Name)
		}
		if f.Field != "" && f.Answer != Parsed {
			t.Errorf("%s: a field of an answer that is not parsed", f.Name)
		}
		if f.Writes != Reads && f.Scope != Account {
			t.Errorf("%s: only an account's function writes to it", f.Name)
		}
		if f.Writes == ByOperation && (len(f.Params) == 0 || f.Params[0].Kind != JSON) {
			t.Errorf("%s: writes by its operation but takes none first", f.Name)
		}
		optional := false
		for _, p := range f.Params {
			if optional && !p.Optional {
				t.Errorf("%s: %s is required after an optional parameter", f.Name, p.Name)
			}
			optional = optional || p.Optional
		}
	}
}

func TestDescribeListsEveryRow(t *testing.T) {
	var rows []struct {
		Name   string `json:"name"`
		Key    string `json:"key"`
		Params []struct {
			Name string `json:"name"`
			Kind Kind   `json:"kind"`
		} `json:"params"`
		Scope  Scope  `json:"scope"`
		Writes Writes `json:"writes"`
		Answer Answer `json:"answer"`
	}
	if err := json.Unmarshal([]byte(Describe()), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(Funcs) {
		t.Fatalf("%d rows described, %d in the table", len(rows), len(Funcs))
	}
	for i, r := range rows {
		f := Funcs[i]
		if r.Name != f.Name || r.Key != f.Key() || r.Scope != f.Scope || r.Writes != f.Writes || r.Answer != f.Answer || len(r.Params) != len(f.Params) {
			t.Errorf("row %d described as %+v, is %+v", i, r, f)
		}
	}
}

func TestAccountFunctionsNameTheirAccount(t *testing.T) {
	env := newEnv()
	if m := invoke(t, env, "run", "devstoreaccount1", `{"kind":"createTable","table":"People"}`); m["response"].(map[string]any)["status"] != 201.0 {
		t.Fatalf("run in the page's account: %v", m)
	}
	created := invoke(t, env, "createAccount", "", "")
	name, _ := created["name"].(string)
	if name == "" {
		t.Fatalf("createAccount: %v", created)
	}
	// The new account is its own: it has no People.
	if m := invoke(t, env, "run", name, `{"kind":"getTable","table":"People"}`); m["response"].(map[string]any)["status"] != 404.0 {
		t.Fatalf("another account sees the page's table: %v", m)
	}
	if m := invoke(t, env, "run", "nosuchaccount", `{"kind":"listTables"}`); m["error"] != play.ErrNoAccount.Error() {
		t.Fatalf("an unknown account: %v", m)
	}
	// A function answering "" on success answers the error as text.
	if got := env.Invoke(row(t, "reset"), []any{"nosuchaccount"}); got != play.ErrNoAccount.Error() {
		t.Fatalf("reset of an unknown account: %q", got)
	}
	if got := env.Invoke(row(t, "dropAccount"), []any{name}); got != "" {
		t.Fatalf("dropAccount: %q", got)
	}
	if got := env.Invoke(row(t, "setProfile"), []any{"devstoreaccount1", "nosuch"}); !strings.Contains(got, `no profile "nosuch"`) {
		t.Fatalf("setProfile to an unknown profile: %q", got)
	}
}

func TestWritesReadsTheOperationsKind(t *testing.T) {
	env := newEnv()
	run := row(t, "run")
	for op, want := range map[string]bool{
		`{"kind":"insert","table":"t","entity":{"PartitionKey":"p","RowKey":"r","properties":[]}}`: true,
		`{"kind":"createTable","table":"t"}`: true,
		`{"kind":"query","table":"t"}`:       false,
		`{"kind":"teleport"}`:                false,
		`not json`:                           false,
	} {
		if got := env.Writes(run, []any{"devstoreaccount1", op}); got != want {
			t.Errorf("run %s writes: %v, want %v", op, got, want)
		}
	}
	if !env.Writes(row(t, "importCSV"), []any{"devstoreaccount1", "t", ""}) {
		t.Error("importCSV does not write")
	}
	// The store's own tools never go through the keeper.
	if env.Writes(row(t, "restore"), []any{"devstoreaccount1", "{}"}) {
		t.Error("restore is kept")
	}
}

func TestConnectionsAreBoundedAndForgotten(t *testing.T) {
	env := newEnv()
	conn := `{"endpoint":"http://127.0.0.1:10002/devstoreaccount1","wellKnownKey":true}`
	first := invoke(t, env, "connect", conn)
	id, _ := first["id"].(string)
	if id == "" {
		t.Fatalf("connect: %v", first)
	}
	req := invoke(t, env, "remote.requestFor", id, `{"kind":"listTables"}`)
	if u, _ := req["url"].(string); !strings.HasPrefix(u, "http://127.0.0.1:10002/devstoreaccount1/Tables") {
		t.Fatalf("requestFor a connection: %v", req)
	}
	if got := env.Invoke(row(t, "remote.disconnect"), []any{id}); got != "" {
		t.Fatalf("disconnect: %q", got)
	}
	if m := invoke(t, env, "remote.requestFor", id, `{"kind":"listTables"}`); m["error"] != "not connected" {
		t.Fatalf("a forgotten connection: %v", m)
	}
	for range maxRemotes {
		invoke(t, env, "connect", conn)
	}
	if m := invoke(t, env, "connect", conn); !strings.Contains(m["error"].(string), "too many connections") {
		t.Fatalf("connection %d: %v", maxRemotes+1, m)
	}
}

func TestLessonsRunInTheirAccount(t *testing.T) {
	env := newEnv()
	var menu []map[string]any
	if err := json.Unmarshal([]byte(env.Invoke(row(t, "lessons"), nil)), &menu); err != nil || len(menu) == 0 {
		t.Fatalf("lessons: %v %v", menu, err)
	}
	id := menu[0]["id"].(string)
	if m := invoke(t, env, "lesson", id); m["id"] != id {
		t.Fatalf("lesson %s: %v", id, m)
	}
	step := invoke(t, env, "runLessonStep", "devstoreaccount1", id, 0.0)
	if _, ok := step["ok"]; !ok {
		t.Fatalf("runLessonStep: %v", step)
	}
	// A step number that is not a number is no step.
	if m := invoke(t, env, "runLessonStep", "devstoreaccount1", id, "0"); m["error"] == nil {
		t.Fatalf("a step given as text: %v", m)
	}
}
