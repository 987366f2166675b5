package lesson

import (
	"os"
	"testing"
)

// FuzzParseLesson: any bytes are a lesson or an error, never a panic, and a
// lesson that parses builds its start account (bounded by MaxGenerated)
// without one either.
func FuzzParseLesson(f *testing.F) {
	for _, id := range []string{"table-names", "partition-design", "transactions"} {
		if b, err := os.ReadFile("../../lessons/" + id + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"id":"x","order":1}`))
	f.Add([]byte(`{"generate":[{"table":"t","count":3,"partitionKey":{"from":"random","date":"2026-01-01","add":-9000000}}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		l, err := Parse(doc)
		if err != nil {
			return
		}
		if _, err := l.Account(); err != nil {
			return
		}
	})
}

// FuzzCompleteLesson: any bytes given as a recorded lesson are completed
// into a lesson the loader accepts, or refused, never a panic; generators
// are bounded before the start account is built.
func FuzzCompleteLesson(f *testing.F) {
	f.Add([]byte(recordedDraft))
	f.Add([]byte(`{"steps":[{},{},{}]}`))
	f.Add([]byte(`{"start":{"format":"tableplay-account","version":1,"tables":[]},"generate":[{"table":"t","count":100000000}],"steps":[{"operation":{"kind":"listTables"}},{"operation":{"kind":"listTables"}},{"operation":{"kind":"listTables"}}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := Complete(doc, testClock())
		if err != nil {
			return
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("completed lesson refused by the loader: %v", err)
		}
	})
}
