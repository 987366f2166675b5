package codegen_test

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/codegen"
)

// checkLayout fails unless LayoutGo lays src out exactly as go/format does.
func checkLayout(t *testing.T, name, src string) {
	t.Helper()
	want, err := format.Source([]byte(src))
	if err != nil {
		t.Fatalf("%s: the generated Go does not parse: %v\n%s", name, err, src)
	}
	if got := codegen.LayoutGo(src); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s: line %d\n got %q\nwant %q", name, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, gofmt has %d", name, len(gl), len(wl))
	}
}

func TestLayoutIsGofmtOnEveryCase(t *testing.T) {
	for _, c := range runCases() {
		checkLayout(t, c.name, codegen.GoSource(typed(t, c.op).op, codegen.Options{}))
	}
}

// Property names of very different lengths, values with braces, quotes and
// comment markers, special and integral doubles in runs: the alignment
// sections and comment columns gofmt cuts.
func TestLayoutIsGofmtOnRandomEntities(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	types := []struct{ typ, text string }{
		{"Edm.String", `a "{" } // not a comment`}, {"Edm.String", "Zoë ` tick"}, {"Edm.Int32", "7"},
		{"Edm.Double", "NaN"}, {"Edm.Double", "20"}, {"Edm.Double", "0.5"}, {"Edm.Double", "-Infinity"},
		{"Edm.Boolean", "false"}, {"Edm.Int64", "-9007199254740993"}, {"Edm.Binary", "AAEC"},
		{"Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"}, {"Edm.DateTime", "2026-01-02T03:04:05Z"},
	}
	for n := 0; n < 400; n++ {
		d := keyed("p{", fmt.Sprint(n))
		for i, k := 0, 1+r.IntN(12); i < k; i++ {
			ty := types[r.IntN(len(types))]
			name := []string{"P", "Ü", "名前"}[r.IntN(3)] + strings.Repeat([]string{"x", "é"}[r.IntN(2)], []int{0, 1, 3, 10, 30, 37, 38, 39, 45, 90, 200}[r.IntN(11)]) + fmt.Sprint(i)
			d.Properties = append(d.Properties, prop(name, ty.typ, ty.text))
		}
		kinds := []string{"insert", "replace", "insertOrMerge"}
		o := pageOp{Kind: kinds[r.IntN(len(kinds))], Table: "T", Entity: &d}
		if n%5 == 0 {
			o = pageOp{Kind: "batch", Operations: []pageOp{o, {Kind: "merge", Table: "T", Entity: &d}}}
		}
		checkLayout(t, fmt.Sprintf("entity %d", n), codegen.GoSource(typed(t, o).op, codegen.Options{}))
	}
}
