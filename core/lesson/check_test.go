package lesson

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// mutate loads a lesson file as generic JSON, lets f change it and parses
// the result strictly.
func mutate(t *testing.T, id string, f func(doc map[string]any)) (*Lesson, error) {
	t.Helper()
	b, err := os.ReadFile("../../lessons/" + id + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, _ := json.Marshal(doc)
	return Parse(out)
}

func stepOf(doc map[string]any, i int) map[string]any {
	return doc["steps"].([]any)[i].(map[string]any)
}

// TestWrongExpectationFails proves the check can fail: each wrong claim is
// reported with the lesson, the step and the difference.
func TestWrongExpectationFails(t *testing.T) {
	cases := []struct {
		id   string
		step int
		edit func(expect map[string]any)
		want string
	}{
		{"table-names", 2, func(e map[string]any) { e["status"] = 404.0 }, "table-names step 3 (The reserved name): status: expected 404, got 400"},
		{"table-names", 4, func(e map[string]any) { e["code"] = "Conflict" }, `error code: expected "Conflict", got "TableAlreadyExists"`},
		{"keys", 0, func(e map[string]any) { e["rules"] = []any{"key-too-long"} }, "rules: expected [key-too-long], got [key-characters]"},
		{"entity-size", 1, func(e map[string]any) { e["size"] = 42.0 }, "size: expected 42, got 34"},
		{"writes", 2, func(e map[string]any) {
			e["entity"] = map[string]any{"properties": []any{map[string]any{"name": "Email", "type": "Edm.String", "text": "ada@example.com"}}}
		}, "entity: expected [Email:String=ada@example.com], got [Name:String=Ada Visits:Int32=5]"},
		{"partition-design", 0, func(e map[string]any) { e["scanned"] = 2000.0 }, "scanned: expected 2000, got 54"},
		{"paging", 0, func(e map[string]any) { e["more"] = false }, "more: expected false, got true"},
		{"filter-semantics", 0, func(e map[string]any) { e["rowKeys"] = []any{"Banana", "apricot", "cherry"} }, "rowKeys: expected [Banana apricot cherry], got [Banana apricot]"},
		{"edm-types", 2, func(e map[string]any) { e["annotated"] = []any{} }, "annotated: expected [], got [Born Id Photo Visits]"},
		{"transactions", 1, func(e map[string]any) { e["failedIndex"] = 0.0 }, "failedIndex: expected 0, got 1"},
		{"two-clients", 3, func(e map[string]any) { e["status"] = 204.0; delete(e, "code") }, "status: expected 204, got 412"},
		{"datetime", 2, func(e map[string]any) { e["contains"] = []any{"2026-03-01T10:00:00.123Z"} }, `body: expected it to contain "2026-03-01T10:00:00.123Z"`},
	}
	for _, c := range cases {
		l, err := mutate(t, c.id, func(doc map[string]any) {
			step := stepOf(doc, c.step)
			if p, ok := step["predict"]; ok && p != nil {
				delete(step, "predict") // the edited status may disagree with the choices
			}
			c.edit(step["expect"].(map[string]any))
		})
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		fails := runLesson(t, l)
		if len(fails) == 0 {
			t.Errorf("%s step %d: a wrong expectation passed the check", c.id, c.step+1)
			continue
		}
		joined := strings.Join(fails, "\n")
		if !strings.Contains(joined, c.want) || !strings.HasPrefix(fails[0], c.id+" step ") {
			t.Errorf("%s: got\n%s\nwant a line naming the lesson and step and containing\n%s", c.id, joined, c.want)
		}
	}
}

// TestShapeIsStrict: unknown fields, missing expectations and malformed
// steps are refused when the lesson is read.
func TestShapeIsStrict(t *testing.T) {
	cases := []struct {
		name string
		edit func(doc map[string]any)
		want string
	}{
		{"unknown lesson field", func(d map[string]any) { d["author"] = "x" }, `unknown field "author"`},
		{"unknown step field", func(d map[string]any) { stepOf(d, 0)["hint"] = "x" }, `unknown field "hint"`},
		{"unknown expectation field", func(d map[string]any) { stepOf(d, 0)["expect"].(map[string]any)["stauts"] = 1.0 }, `unknown field "stauts"`},
		{"unknown operation field", func(d map[string]any) { stepOf(d, 2)["operation"].(map[string]any)["tabel"] = "x" }, `unknown field "tabel"`},
		{"no expectation for an operation", func(d map[string]any) { stepOf(d, 3)["expect"] = map[string]any{} }, "step 4: an operation's expectation needs a status"},
		{"no expectation for a check", func(d map[string]any) { stepOf(d, 0)["expect"] = map[string]any{} }, "step 1: the expectation needs valid"},
		{"two actions", func(d map[string]any) { stepOf(d, 0)["filter"] = "a eq 1" }, "step 1: 2 actions"},
		{"no action", func(d map[string]any) { delete(stepOf(d, 0), "tableName") }, "step 1: 0 actions"},
		{"too few steps", func(d map[string]any) { d["steps"] = d["steps"].([]any)[:2] }, "2 steps"},
		{"prediction disagrees", func(d map[string]any) { stepOf(d, 2)["predict"].(map[string]any)["answer"] = 2.0 }, "names the expected status 400 but is not the answer"},
		{"one choice", func(d map[string]any) { stepOf(d, 0)["predict"].(map[string]any)["choices"] = []any{"a"} }, "2 to 4 choices"},
		{"missing title", func(d map[string]any) { delete(d, "title") }, "title, line and summary are required"},
		{"query expectation on a check", func(d map[string]any) { stepOf(d, 0)["expect"].(map[string]any)["rowKeys"] = []any{"a"} }, "belong to operations"},
		{"unknown profile", func(d map[string]any) { stepOf(d, 2)["profile"] = "azurite" }, `no profile "azurite"`},
		{"profile on a check", func(d map[string]any) { stepOf(d, 0)["profile"] = "cosmos" }, "profile belong to operations"},
	}
	for _, c := range cases {
		_, err := mutate(t, "table-names", c.edit)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	if _, err := Parse([]byte(`{"id":"x"} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

// TestGeneratedDatasets: the same spec builds the same entities, and two
// datasets sharing a stream agree entity by entity.
func TestGeneratedDatasets(t *testing.T) {
	g := Gen{Format: "c-%02d", From: "random", Stream: "customer", Mod: 40}
	h := Gen{Format: "c-%02d", From: "random", Stream: "customer", Mod: 40}
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		a := g.value(7, i)
		if a != h.value(7, i) || a != g.value(7, i) {
			t.Fatalf("entity %d: not deterministic", i)
		}
		seen[a] = true
	}
	if len(seen) != 40 {
		t.Errorf("%d distinct customers of 40", len(seen))
	}
	d := Gen{Date: "2026-01-01", From: "index", Div: 20}
	if got := d.value(0, 99); got != "2026-01-05" {
		t.Errorf("index 99 → %s, want 2026-01-05", got)
	}
	if err := (Gen{From: "sometimes", Format: "%d"}).check(); err == nil {
		t.Error("an unknown source was accepted")
	}
	if err := (Gen{From: "index", Format: strings.Repeat("x", MaxFormat+1)}).check(); err == nil {
		t.Error("an oversized format was accepted")
	}
	// Bounds, checked on an otherwise valid lesson.
	bounded := func(ds ...Dataset) error {
		l, err := mutate(t, "paging", func(map[string]any) {})
		if err != nil {
			t.Fatal(err)
		}
		l.Generate = ds
		return l.validate()
	}
	key := Gen{Format: "%d", From: "index"}
	if err := bounded(Dataset{Table: "T", Count: MaxGenerated, PartitionKey: key, RowKey: key}); err != nil {
		t.Errorf("the largest dataset allowed was refused: %v", err)
	}
	if err := bounded(Dataset{Table: "T", Count: MaxGenerated + 1, PartitionKey: key, RowKey: key}); err == nil {
		t.Error("an oversized dataset was accepted")
	}
	if err := bounded(Dataset{Table: "T", Count: 1000, PartitionKey: key, RowKey: key, Properties: make([]GenProperty, MaxGeneratedValues/1000)}); err == nil || !strings.Contains(err.Error(), "values in all") {
		t.Errorf("too many generated values: %v", err)
	}
	if err := bounded(Dataset{Table: "T", Count: 5, PartitionKey: Gen{Format: strings.Repeat("x", MaxFormat+1), From: "index"}, RowKey: key}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("an oversized format in a dataset: %v", err)
	}
	// Generated entities join those the start account lists, and a table
	// only a dataset names is created.
	l := &Lesson{Start: []byte(`{"format":"tableplay-account","version":1,"tables":[{"name":"Tee","created":"2026-01-01T00:00:00Z",` +
		`"entities":[{"PartitionKey":"a","RowKey":"listed","Timestamp":"2026-01-01T00:00:00Z","properties":[]}]}]}`),
		Generate: []Dataset{
			{Table: "tee", Count: 3, PartitionKey: Gen{Format: "b", From: "index", Mod: 1}, RowKey: Gen{Format: "%d", From: "index"}},
			{Table: "Uuu", Count: 2, PartitionKey: Gen{Format: "p", From: "index", Mod: 1}, RowKey: Gen{Format: "%d", From: "index"},
				Properties: []GenProperty{{Name: "When", Type: "Edm.DateTime", Gen: Gen{Date: "2026-01-01", Format: "2006-01-02T15:04:05Z", From: "index"}}}},
		}}
	doc, err := l.Account()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "%!") {
		t.Errorf("a constant format was run through Sprintf: %s", doc)
	}
	s := newSession()
	if err := s.Store.Restore(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	for table, want := range map[string]int{"Tee": 4, "Uuu": 2} {
		if n, _ := s.Store.Count(table); n != want {
			t.Errorf("%s holds %d entities, want %d", table, n, want)
		}
	}
}

// TestLibrary: the page's calls answer the menu, a step's run with its
// exchange, and errors for unknown lessons and steps.
func TestLibrary(t *testing.T) {
	b := &Library{Lessons: loadAll(t), Session: newSession()}
	var menu []Entry
	if err := json.Unmarshal(b.List(), &menu); err != nil || len(menu) < 14 || menu[0].ID != "table-names" {
		t.Fatalf("menu: %v %+v", err, menu)
	}
	var r Result
	json.Unmarshal(b.RunStep("two-clients", 3), &r)
	if !r.OK || r.Response == nil || r.Response.Status != 412 || r.Held["A"] == "" || r.Held["A"] == r.Held["B"] {
		t.Errorf("two-clients step 4: %+v", r)
	}
	if r.Before == nil || r.After == nil || r.Before.ETag != r.After.ETag {
		t.Errorf("a refused write changed the entity: %+v → %+v", r.Before, r.After)
	}
	if len(r.Timeline) != 4 || r.Timeline[3].Client != "B" || r.Timeline[3].Status != 412 || r.Timeline[2].Status != 204 {
		t.Errorf("timeline: %+v", r.Timeline)
	}
	r = Result{}
	json.Unmarshal(b.RunStep("nope", 0), &r)
	if r.Error == "" || r.OK {
		t.Error("an unknown lesson ran")
	}
	json.Unmarshal(b.RunStep("keys", 99), &r)
	if r.Error == "" {
		t.Error("an unknown step ran")
	}
	if out := string(b.Reset("writes", 2)); !strings.Contains(out, `"held"`) {
		t.Errorf("reset: %s", out)
	}
}

// TestGuideListsEveryLesson keeps docs/lessons.md's table of lessons and
// step counts true.
func TestGuideListsEveryLesson(t *testing.T) {
	guide, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range loadAll(t) {
		row := "| `" + l.ID + "` | " + l.Title + " | " + itoa(len(l.Steps)) + " |"
		if !strings.Contains(string(guide), row) {
			t.Errorf("docs/lessons.md lacks the row %s", row)
		}
	}
}

// TestPrepareReplaysOnlyWhenNeeded: running steps in order replays nothing,
// so what the account holds carries over; a change from outside the session
// (the person trying things) makes the next step start over from the start
// account.
func TestPrepareReplaysOnlyWhenNeeded(t *testing.T) {
	b := &Library{Lessons: loadAll(t), Session: newSession()}
	var r Result
	json.Unmarshal(b.RunStep("two-clients", 0), &r)
	if !r.OK {
		t.Fatalf("step 1: %+v", r)
	}
	// Behind the session's back: the entity is gone, and nobody said so.
	if _, err := b.Session.Store.Apply("Stock", store.Op{Kind: store.Delete, IfMatch: store.Match{Kind: store.MatchAny}, Entity: &entity.Entity{PartitionKey: "s", RowKey: "widget"}}); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b.RunStep("two-clients", 1), &r)
	if r.OK || r.Outcome.Status != 404 {
		t.Fatalf("step 2 replayed although it ran in order: %+v", r.Outcome)
	}
	// Now the change is reported, as the page's store reports every change.
	b.Session.Store.Apply("Stock", store.Op{Kind: store.Delete, IfMatch: store.Match{Kind: store.MatchAny}, Entity: &entity.Entity{PartitionKey: "s", RowKey: "widget"}})
	b.Session.Changed()
	json.Unmarshal(b.RunStep("two-clients", 1), &r)
	if !r.OK {
		t.Fatalf("step 2 after a reported change: %+v", r.Outcome)
	}
}

// TestAccountsKeepLessonsApart: a lesson run in one account leaves another
// untouched, each account's session replays after its own changes only, and
// a dropped account's session is forgotten.
func TestAccountsKeepLessonsApart(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var la *Accounts
	engine := play.NewAccounts(play.AccountsOptions{
		Clock:    func() time.Time { now = now.Add(time.Millisecond); return now },
		Base:     func(name string) string { return "http://127.0.0.1:10002/" + name },
		OnChange: func(name string) { la.Changed(name) },
	})
	la = &Accounts{Lessons: loadAll(t), Engine: engine}
	if _, err := engine.Create("embed1"); err != nil {
		t.Fatal(err)
	}
	var r Result
	json.Unmarshal(la.Library("embed1").RunStep("two-clients", 3), &r)
	if !r.OK {
		t.Fatalf("two-clients step 4 in embed1: %+v", r)
	}
	if tables := string(engine.Get("embed1").Store.Snapshot()); !strings.Contains(tables, `"name":"Stock"`) {
		t.Errorf("embed1 lacks the lesson's table: %s", tables)
	}
	if page := string(engine.Get(rest.WellKnownAccount).Store.Snapshot()); strings.Contains(page, "Stock") {
		t.Errorf("the page's account changed: %s", page)
	}
	if !strings.Contains(r.Request.URL, "/embed1/") {
		t.Errorf("the request went to %s", r.Request.URL)
	}
	// The page's own change to embed1's account reaches embed1's session.
	lib := la.Library("embed1")
	engine.Get("embed1").Store.Apply("Stock", store.Op{Kind: store.Delete, IfMatch: store.Match{Kind: store.MatchAny}, Entity: &entity.Entity{PartitionKey: "s", RowKey: "widget"}})
	json.Unmarshal(lib.RunStep("two-clients", 4), &r)
	if !r.OK {
		t.Errorf("step 5 after an outside change did not start over: %+v", r.Outcome)
	}
	if la.Library("nobody") != nil {
		t.Error("a library for an account that does not exist")
	}
	engine.Drop("embed1")
	engine.Create("embed1")
	if la.Library("embed1") == lib {
		t.Error("a new account named like a dropped one got the old session")
	}
}
