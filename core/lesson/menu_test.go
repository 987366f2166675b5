package lesson

import (
	"bytes"
	"os"
	"testing"
	"testing/fstest"
)

// TestMenuMatchesList: the menu read without decoding is byte for byte the
// one the decoded lessons answer, so the page's menu cannot drift from the
// lessons it opens.
func TestMenuMatchesList(t *testing.T) {
	got, err := Menu(os.DirFS("../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	want := (&Library{Lessons: loadAll(t)}).List()
	if !bytes.Equal(got, want) {
		t.Errorf("menu\n%s\nwant\n%s", got, want)
	}
}

// TestMenuRefusesWhatIsNoLesson: a file whose top level is not an object,
// or that is over MaxFile, is an error rather than an empty menu line.
func TestMenuRefusesWhatIsNoLesson(t *testing.T) {
	for name, doc := range map[string][]byte{
		"array": []byte(`[{"id":"x"}]`),
		"big":   append([]byte(`{"id":"`), bytes.Repeat([]byte("x"), MaxFile)...),
	} {
		if _, err := Menu(fstest.MapFS{"x.json": {Data: doc}}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzMenu: any file is a menu or an error, never a panic, and for any file
// Parse accepts the menu line is the one List answers for it.
func FuzzMenu(f *testing.F) {
	// Whole lesson files as seeds stall the fuzzing engine here (it stops
	// mutating; no input is slow), so the seeds are small: TestMenuMatchesList
	// holds the menu of the real lessons to List's.
	f.Add([]byte(`{"id":"x","order":1,"title":"T","line":"L","clients":["A","B"],"steps":[{"title":"a"},{},{}],"start":{}}`))
	f.Add([]byte(`{"id":"x","order":1,"steps":[[[[[[`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := Menu(fstest.MapFS{"x.json": {Data: doc}})
		l, perr := Parse(doc)
		if perr != nil {
			return
		}
		if err != nil {
			t.Fatalf("Parse accepts what Menu refuses: %v", err)
		}
		if want := (&Library{Lessons: []*Lesson{l}}).List(); !bytes.Equal(got, want) {
			t.Fatalf("menu %s, want %s", got, want)
		}
	})
}
