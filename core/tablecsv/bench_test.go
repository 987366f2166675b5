package tablecsv

import (
	"strings"
	"testing"
)

// BenchmarkReadHostile reads the costliest files within the bounds: the
// largest file of empty fields, and the largest of one long quoted field.
func BenchmarkReadHostile(b *testing.B) {
	rows := strings.Repeat(strings.Repeat(",", 15)+"\n", MaxBytes/16-2)
	files := map[string]string{
		"empty-fields": strings.Repeat(",", 15) + "\n" + rows,
		"one-quoted":   "PartitionKey,RowKey,T\np,r,\"" + strings.Repeat("x", MaxBytes-40) + "\"\n",
	}
	for name, text := range files {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Read(text)
			}
		})
	}
}
