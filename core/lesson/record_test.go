package lesson

import (
	"os"
	"strings"
	"testing"
	"time"
)

func testClock() func() time.Time {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	return func() time.Time { now = now.Add(time.Millisecond); return now }
}

// recordedDraft is a lesson as the page records it: operations, prose and
// predictions, no expectations.
const recordedDraft = `{"id":"my-pets","order":100,"title":"Pets","line":"One line.","summary":"A summary.",
"section":{"title":"Understanding the Table service data model","url":"https://learn.microsoft.com/en-us/rest/api/storageservices/understanding-the-table-service-data-model"},
"start":{"format":"tableplay-account","version":1,"tables":[]},
"steps":[
{"title":"Create","text":"Create the table.","explain":"{status}.","operation":{"kind":"createTable","table":"Pets"},"expect":{}},
{"title":"Insert","text":"Insert a pet.","explain":"{status}.","operation":{"kind":"insert","table":"Pets","entity":{"PartitionKey":"p","RowKey":"rex","properties":[{"name":"Age","type":"Edm.Int32","text":"3"}]}},
 "predict":{"question":"What comes back?","choices":["201 Created","409 Conflict"],"answer":0},"expect":{}},
{"title":"Query","text":"Query it.","explain":"{returned} of {scanned}.","operation":{"kind":"query","table":"Pets","filter":"Age gt 2"},"expect":{}}
]}`

// TestCompleteFillsExpectations records three operations and requires the
// engine's answers as their expectations, in a file Parse accepts and whose
// steps pass the check.
func TestCompleteFillsExpectations(t *testing.T) {
	out, err := Complete([]byte(recordedDraft), testClock())
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if e := l.Steps[0].Expect; e.Status != 201 {
		t.Errorf("create: %+v", e)
	}
	if e := l.Steps[1].Expect; e.Status != 201 || e.Entity == nil || len(e.Entity.Properties) != 1 {
		t.Errorf("insert: %+v", e)
	}
	if e := l.Steps[2].Expect; e.Status != 200 || *e.Returned != 1 || *e.Scanned != 1 || strings.Join(e.RowKeys, ",") != "rex" {
		t.Errorf("query: %+v", e)
	}
	for _, f := range runLesson(t, l) {
		t.Error(f)
	}
}

// TestCompleteRefuses: a prediction that disagrees with what the engine
// answered, too few steps and unknown fields are refused by the loader.
func TestCompleteRefuses(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"answer":0`, `"answer":1`, "choice 1 names the expected status 201"},
		{`"kind":"createTable"`, `"kind":"createTable","colour":"red"`, "unknown field"},
		{`{"title":"Query","text":"Query it.","explain":"{returned} of {scanned}.","operation":{"kind":"query","table":"Pets","filter":"Age gt 2"},"expect":{}}`, ``, "2 steps"},
	} {
		doc := strings.Replace(recordedDraft, c.from, c.to, 1)
		doc = strings.Replace(doc, "}},\n\n]}", "}}\n]}", 1)
		if _, err := Complete([]byte(doc), testClock()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q → %q: %v, want %q", c.from, c.to, err, c.want)
		}
	}
	if _, err := Complete(make([]byte, MaxFile+1), testClock()); err == nil {
		t.Error("an oversized lesson was read")
	}
}

// TestRecordedInThePage loads the lesson e2e/lessons.test.js recorded and
// exported in Chromium (and compares with each run) with the loader, and
// runs its steps.
func TestRecordedInThePage(t *testing.T) {
	b, err := os.ReadFile("testdata/recorded.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Steps) < 3 {
		t.Fatalf("%d steps", len(l.Steps))
	}
	for _, f := range runLesson(t, l) {
		t.Error(f)
	}
}

// TestAddCustom serves a lesson written in the browser beside the engine's
// own, never in place of one, and bounds how many.
func TestAddCustom(t *testing.T) {
	own := loadAll(t)
	a := &Accounts{Lessons: append([]*Lesson{}, own...)}
	l, err := Parse(mustComplete(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AddCustom(l, len(own)); err != nil || a.Lessons[len(own)] != l {
		t.Fatalf("add: %v", err)
	}
	if err := a.AddCustom(l, len(own)); err != nil || len(a.Lessons) != len(own)+1 {
		t.Fatalf("replace: %v, %d lessons", err, len(a.Lessons))
	}
	clash := *l
	clash.ID = "etags"
	if err := a.AddCustom(&clash, len(own)); err == nil {
		t.Error("a custom lesson took a built-in id")
	}
	for i := 0; i < MaxCustom+1; i++ {
		x := *l
		x.ID = "custom-" + itoa(i)
		err = a.AddCustom(&x, len(own))
	}
	if err == nil || len(a.Lessons) != len(own)+MaxCustom {
		t.Errorf("%d lessons after %d adds: %v", len(a.Lessons), MaxCustom+1, err)
	}
}

func mustComplete(t *testing.T) []byte {
	t.Helper()
	out, err := Complete([]byte(recordedDraft), testClock())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRecordedLang: a recorded lesson says the language it is written in;
// the loader takes the four the page is shown in and refuses any other tag.
func TestRecordedLang(t *testing.T) {
	for _, tag := range []string{"en", "pl", "ja", "fr"} {
		doc := strings.Replace(recordedDraft, `"title":"Pets"`, `"title":"Pets","lang":"`+tag+`"`, 1)
		out, err := Complete([]byte(doc), testClock())
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		l, err := Parse(out)
		if err != nil || l.Lang != tag {
			t.Errorf("%s: lang %q, %v", tag, l.Lang, err)
		}
	}
	for _, tag := range []string{"de", "PL", "pl-PL", "english"} {
		doc := strings.Replace(recordedDraft, `"title":"Pets"`, `"title":"Pets","lang":"`+tag+`"`, 1)
		if _, err := Complete([]byte(doc), testClock()); err == nil || !strings.Contains(err.Error(), "lang") {
			t.Errorf("lang %q was taken: %v", tag, err)
		}
	}
}
