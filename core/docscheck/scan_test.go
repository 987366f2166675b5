package docscheck

import (
	"reflect"
	"strings"
	"testing"
)

// TestScan: attributes in every quoting, character references decoded,
// the inline script's raw text, line numbers, and elements that are only
// mentioned (no closing tag).
func TestScan(t *testing.T) {
	text := "# Title\n\nMention `<table-playground>` in prose.\n\n" +
		"<TABLE-PLAYGROUND view=query,wire readonly\n  expect='{\"status\":200}' label=\"A &amp; B\">\n" +
		"<script type=\"application/json\">{\"filter\": \"a lt '&amp;'\"}</script>\n</table-playground>\n" +
		"<table-playground-other x=1></table-playground-other>\n" +
		"<table-playground lesson=\"keys\" step=\"2\" lesson=\"ignored\"/>\n"
	got, err := Scan([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{
		{Line: 3, Attrs: map[string]string{}},
		{Line: 5, Attrs: map[string]string{"view": "query,wire", "readonly": "", "expect": `{"status":200}`, "label": "A & B"},
			Inline: `{"filter": "a lt '&amp;'"}`, HasInline: true, InlineFrom: `its <script type="application/json">`},
		{Line: 10, Attrs: map[string]string{"lesson": "keys", "step": "2"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestScanTemplate: a child <template>'s text is read with its character
// references decoded (as the browser parses it) and wins over a script.
func TestScanTemplate(t *testing.T) {
	got, err := Scan([]byte("<table-playground><template>{&quot;table&quot;: &quot;A&amp;B&quot;}</template><script type=\"application/json\">{}</script></table-playground>"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Inline != `{"table": "A&B"}` || got[0].InlineFrom != "its <template>" {
		t.Errorf("got %+v", got)
	}
}

// TestScanRefuses: a tag or a quoted value that never ends, too many
// attributes or examples, and an oversized file are errors, not guesses.
func TestScanRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"unclosed tag":      "<table-playground view=editor",
		"unclosed value":    "<table-playground view=\"editor>",
		"attributes":        "<table-playground" + attrs(MaxAttributes+1) + ">",
		"examples":          strings.Repeat("<table-playground>", MaxExamples+1),
		"larger than bound": strings.Repeat(" ", MaxFile+1),
	} {
		if _, err := Scan([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Scan([]byte("<table-playground" + attrs(MaxAttributes) + ">")); err != nil {
		t.Errorf("the most attributes allowed: %v", err)
	}
}

func attrs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(" a")
		b.WriteString(strings.Repeat("x", i))
	}
	return b.String()
}

// FuzzScan: any bytes scan without a panic, every example's line lies in
// the file, and the scan is deterministic.
func FuzzScan(f *testing.F) {
	f.Add([]byte("<table-playground view='query' expect=\"{&quot;status&quot;:200}\"><script type=application/json>{}</script></table-playground>"))
	f.Add([]byte("a\n<table-playground lesson=keys step=1/>\n<table-playground"))
	f.Add([]byte("<table-playground =x y= z='></table-playground><script"))
	f.Fuzz(func(t *testing.T, text []byte) {
		got, err := Scan(text)
		if err != nil {
			return
		}
		lines := strings.Count(string(text), "\n") + 1
		for _, ex := range got {
			if ex.Line < 1 || ex.Line > lines {
				t.Fatalf("line %d of a %d-line file", ex.Line, lines)
			}
		}
		again, _ := Scan(text)
		if !reflect.DeepEqual(got, again) {
			t.Fatal("two scans differ")
		}
	})
}

// BenchmarkScanHostile: the most unclosed elements a file may hold, then
// the rest of the largest file and one closing tag, costs one pass over the
// file (the closing tag is not searched for again for each element).
func BenchmarkScanHostile(b *testing.B) {
	head := strings.Repeat("<table-playground a=1>", MaxExamples)
	text := []byte(head + strings.Repeat("x", MaxFile-len(head)-len("</table-playground>")) + "</table-playground>")
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if got, err := Scan(text); err != nil || len(got) != MaxExamples {
			b.Fatal(len(got), err)
		}
	}
}
