package lesson

import (
	"strings"
	"testing"
)

// worstLesson generates the most a lesson may: MaxGeneratedValues values of
// MaxFormat bytes each.
func worstLesson() *Lesson {
	long := strings.Repeat("x", MaxFormat-3) + "%d"
	props := make([]GenProperty, 8)
	for i := range props {
		props[i] = GenProperty{Name: "P" + string(rune('a'+i)), Type: "Edm.String", Gen: Gen{Format: long, From: "random", Stream: string(rune('a' + i))}}
	}
	return &Lesson{
		Start: []byte(`{"format":"tableplay-account","version":1,"tables":[]}`),
		Generate: []Dataset{{Table: "Worst", Count: MaxGeneratedValues / 10, PartitionKey: Gen{Format: "p%d", From: "index", Div: 100},
			RowKey: Gen{Format: long, From: "index"}, Properties: props}},
	}
}

// BenchmarkAccountWorstCase: building and restoring the largest start
// account a lesson file may ask for.
func BenchmarkAccountWorstCase(b *testing.B) {
	l := worstLesson()
	for _, d := range l.Generate {
		for _, g := range append([]Gen{d.PartitionKey, d.RowKey}, gens(d.Properties)...) {
			if err := g.check(); err != nil {
				b.Fatal(err)
			}
		}
	}
	s := newSession()
	for b.Loop() {
		doc, err := l.Account()
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Store.Restore(doc); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(doc)), "doc-bytes")
	}
}
