package docscheck

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/lesson"
)

func checker(t *testing.T) *Checker {
	t.Helper()
	all, err := lesson.Load(os.DirFS("../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Millisecond); return now }
	return &Checker{Lessons: all, Clock: clock, ReadFile: func(name string) ([]byte, error) { return os.ReadFile(path.Clean(name)) }}
}

func guide(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGuidePasses: the fixture's examples (src, inline, an OData entity
// body with character references in the attribute, an error, lesson steps)
// all hold.
func TestGuidePasses(t *testing.T) {
	n, problems := checker(t).Check("testdata/guide.md", []byte(guide(t)))
	if n != 5 || len(problems) != 0 {
		t.Fatalf("%d examples, problems %v", n, problems)
	}
}

// TestChangedExpectationFails: each change to the fixture that makes an
// example untrue is reported with the file, the element's line and what
// differs.
func TestChangedExpectationFails(t *testing.T) {
	cases := []struct {
		name, from, to, want string
	}{
		{"rows returned", `"returned": 1`, `"returned": 2`, "testdata/guide.md:5: query: returned: expected 2, got 1"},
		{"rows examined", `"scanned": 2`, `"scanned": 3`, "testdata/guide.md:5: query: scanned: expected 3, got 2"},
		{"a property's value", `"text": "120.5"`, `"text": "120.50"`, "testdata/guide.md:5: query: property Total: expected Edm.Double 120.50, got Edm.Double 120.5"},
		{"a property's type", `&quot;type&quot;: &quot;Int64&quot;`, `&quot;type&quot;: &quot;Int32&quot;`, "testdata/guide.md:12: insert: property Serial: expected Edm.Int32 9007199254740993, got Edm.Int64 9007199254740993"},
		{"status", `"status": 409`, `"status": 201`, "testdata/guide.md:21: insert: status: expected 201, got 409"},
		{"error code", `"code": "EntityAlreadyExists"`, `"code": "Conflict"`, `testdata/guide.md:21: insert: error code: expected "Conflict", got "EntityAlreadyExists"`},
		{"a typo in the expectation", `"scanned": 2`, `"scaned": 2`, `testdata/guide.md:5: the expect attribute cannot be read: json: unknown field "scaned"`},
		{"inline JSON", `"properties": []}]}]},`, `"properties": []}]},`, `testdata/guide.md:21: the start state in its <script type="application/json"> is not JSON`},
		{"the start state", `"RowKey": "r", "Timestamp": "2026-01-02T03:04:05Z"`, `"RowKey": "r", "Timestamp": "yesterday"`, "testdata/guide.md:21: the start state no longer loads: "},
		{"a missing table", `{"table": "Orders",`, `{"table": "Order",`, `testdata/guide.md:5: the start state has no table "Order"`},
		{"a lesson step out of range", `step="1"`, `step="9"`, `testdata/guide.md:29: step="9": the lesson has steps 1 to 6`},
		{"an unknown lesson", `lesson="partition-design" steps`, `lesson="partition-designs" steps`, `testdata/guide.md:30: there is no lesson "partition-designs"`},
	}
	for _, c := range cases {
		text := guide(t)
		if !strings.Contains(text, c.from) {
			t.Fatalf("%s: the fixture has no %q", c.name, c.from)
		}
		_, problems := checker(t).Check("testdata/guide.md", []byte(strings.Replace(text, c.from, c.to, 1)))
		var lines []string
		for _, p := range problems {
			lines = append(lines, p.String())
		}
		if len(lines) != 1 || !strings.HasPrefix(lines[0], c.want) {
			t.Errorf("%s: got %q, want one line starting %q", c.name, lines, c.want)
		}
	}
}

// TestLessonStepsAreRun: a step that no longer goes as its lesson says is
// reported for the element that shows it.
func TestLessonStepsAreRun(t *testing.T) {
	c := checker(t)
	var l *lesson.Lesson
	for _, x := range c.Lessons {
		if x.ID == "partition-design" {
			l = x
		}
	}
	saved := l.Steps[0].Expect.Scanned
	defer func() { l.Steps[0].Expect.Scanned = saved }()
	wrong := 1
	l.Steps[0].Expect.Scanned = &wrong
	_, problems := c.Check("g.md", []byte("\n<table-playground lesson=\"partition-design\" step=\"1\"></table-playground>"))
	if len(problems) != 1 || !strings.HasPrefix(problems[0].String(), "g.md:2: lesson partition-design step 1 (") || !strings.Contains(problems[0].Message, "scanned: expected 1") {
		t.Errorf("got %v", problems)
	}
}

// TestParseSteps: one step, a range, all, and the refusals.
func TestParseSteps(t *testing.T) {
	for _, c := range []struct {
		step, steps string
		first, last int
	}{{"", "", 1, 5}, {"3", "", 3, 3}, {"", "2-4", 2, 4}, {"", "5-5", 5, 5}} {
		if f, l, err := ParseSteps(c.step, c.steps, 5); err != nil || f != c.first || l != c.last {
			t.Errorf("%q %q: %d %d %v", c.step, c.steps, f, l, err)
		}
	}
	for _, c := range [][2]string{{"0", ""}, {"6", ""}, {"x", ""}, {"", "4-2"}, {"", "2"}, {"", "1-6"}, {"1", "1-2"}} {
		if _, _, err := ParseSteps(c[0], c[1], 5); err == nil {
			t.Errorf("%q accepted", c)
		}
	}
}

// generatorForms are one start state (guide.md's Int64 example) in each
// form a docs generator leaves: a JSON state attribute, the same as URL-safe
// base64, a <template> child, and a script child whose text a server-side
// renderer escaped (VitePress).
const generatorState = `{"account": {"format": "tableplay-account", "version": 1, "tables": [{"name": "Devices", "created": "2026-01-02T03:04:05Z", "entities": []}]}, "entity": {"PartitionKey": "sensors", "RowKey": "t-01", "Serial@odata.type": "Edm.Int64", "Serial": "9007199254740993"}}`

func generatorForms() map[string]string {
	expect := ` expect='{"status": 201, "properties": [{"name": "Serial", "type": "Int64", "text": "9007199254740993"}]}'`
	escaped := strings.NewReplacer(`"`, "&quot;", "'", "&#39;").Replace(generatorState)
	return map[string]string{
		"state attribute (JSON)":   "<table-playground view=\"editor,wire\"" + expect + " state='" + generatorState + "'></table-playground>",
		"state attribute (base64)": "<table-playground view=\"editor,wire\"" + expect + " state=\"" + base64.RawURLEncoding.EncodeToString([]byte(generatorState)) + "\"></table-playground>",
		"template":                 "<table-playground view=\"editor,wire\"" + expect + "><template>" + escaped + "</template></table-playground>",
		"escaped script":           "<table-playground view=\"editor,wire\"" + expect + "><script type=\"application/json\">" + escaped + "</script></table-playground>",
	}
}

// TestGeneratorFormsPass: each form is read as the element reads it, and
// its expectation is run.
func TestGeneratorFormsPass(t *testing.T) {
	for name, text := range generatorForms() {
		n, problems := checker(t).Check("g.md", []byte(text))
		if n != 1 || len(problems) != 0 {
			t.Errorf("%s: %d examples, problems %v", name, n, problems)
		}
		// The same form made untrue fails.
		_, problems = checker(t).Check("g.md", []byte(strings.Replace(text, "9007199254740993", "9007199254740992", 1)))
		if len(problems) != 1 {
			t.Errorf("%s changed: problems %v", name, problems)
		}
	}
}

// TestBadStartStateFails: a start state that cannot be read, in any form,
// fails with what is wrong.
func TestBadStartStateFails(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`<table-playground state='{"account": '></table-playground>`, "g.md:1: the start state in its state attribute is not JSON"},
		{`<table-playground state="not-json-nor-base64!"></table-playground>`, "g.md:1: the start state in its state attribute is not JSON"},
		{`<table-playground state='{"acount": {}}'></table-playground>`, `g.md:1: the start state in its state attribute has "acount", which a start state does not take`},
		{`<table-playground state='[1]'></table-playground>`, "g.md:1: the start state in its state attribute is not JSON"},
		{`<table-playground><template>{"table": </template></table-playground>`, "g.md:1: the start state in its <template> is not JSON"},
		{`<table-playground src="testdata/state-bad.json"></table-playground>`, "g.md:1: the src start state cannot be read"},
		{`<table-playground state='{"table": "Nope"}'></table-playground>`, `g.md:1: the start state has no table "Nope"`},
	} {
		_, problems := checker(t).Check("g.md", []byte(c.text))
		if len(problems) != 1 || !strings.HasPrefix(problems[0].String(), c.want) {
			t.Errorf("%s: got %v, want %q", c.text, problems, c.want)
		}
	}
}

// TestSrcFullStartState: a src= file may hold the whole start state
// (account, table, filter, entity), and what is inline wins.
func TestSrcFullStartState(t *testing.T) {
	dir := t.TempDir()
	doc := `{"account": ` + strings.TrimSpace(readFixture(t, "testdata/orders.json")) + `, "table": "Orders", "filter": "PartitionKey eq '2024' and Total gt 100"}`
	c := checker(t)
	c.ReadFile = func(name string) ([]byte, error) {
		if name != dir+"/start.json" {
			t.Fatalf("read %s", name)
		}
		return []byte(doc), nil
	}
	page := `<table-playground view="query,wire" src="start.json" expect='{"status": 200, "returned": 1, "scanned": 2}'></table-playground>`
	if _, problems := c.Check(dir+"/g.md", []byte(page)); len(problems) != 0 {
		t.Errorf("full src start state: %v", problems)
	}
	inline := strings.Replace(page, "></table-playground>", `><script type="application/json">{"filter": "PartitionKey eq '2024'"}</script></table-playground>`, 1)
	if _, problems := c.Check(dir+"/g.md", []byte(inline)); len(problems) != 1 || !strings.Contains(problems[0].Message, "returned: expected 1, got 2") {
		t.Errorf("inline filter over src: %v", problems)
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzReadStartState: any text gives a start state or a message, never a
// panic; a state it accepts has an account that is JSON, when it has one.
func FuzzReadStartState(f *testing.F) {
	f.Add(generatorState)
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(generatorState)))
	f.Add(`{&quot;table&quot;: &quot;T&quot;}`)
	f.Add(`{"format": "tableplay-account"}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, text string) {
		in, msg := readStartState(text, "fuzz")
		if msg == "" && in.Account != nil && !json.Valid(in.Account) {
			t.Fatalf("accepted an account that is not JSON: %q", in.Account)
		}
	})
}
