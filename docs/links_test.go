package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestLinksResolve checks every relative link in README.md and docs/*.md:
// the file it names exists and, for a Markdown target, its #fragment is a
// heading there (GitHub's anchors).
func TestLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	if len(pages) < 5 {
		t.Fatalf("found only %v: run the test from docs/", pages)
	}
	links := 0
	for _, page := range pages {
		n, broken := checkLinks(t, page)
		links += n
		for _, b := range broken {
			t.Error(b)
		}
	}
	// The README links each use's page; far fewer links means the scan
	// stopped seeing them.
	if links < 20 {
		t.Errorf("only %d relative links found in %d pages", links, len(pages))
	}
}

// TestCheckerFindsBrokenLinks proves the checker fails: the fixture holds
// good links and one of each kind of broken one, and exactly the broken ones
// are reported.
func TestCheckerFindsBrokenLinks(t *testing.T) {
	n, broken := checkLinks(t, filepath.Join("testdata", "links", "page.md"))
	want := []string{
		`testdata/links/page.md:9: missing.md: no such file`,
		`testdata/links/page.md:10: other.md#no-such-heading: other.md has no heading with the anchor "no-such-heading"`,
		`testdata/links/page.md:11: #nowhere: page.md has no heading with the anchor "nowhere"`,
		`testdata/links/page.md:12: sub/gone.png: no such file`,
		`testdata/links/page.md:13: other.md#a-heading-2: other.md has no heading with the anchor "a-heading-2"`,
		`testdata/links/page.md:13: other.md#not-a-heading: other.md has no heading with the anchor "not-a-heading"`,
		`testdata/links/page.md:15: missing-ref.md: no such file`,
	}
	for i := range broken {
		broken[i] = filepath.ToSlash(broken[i])
	}
	if !slices.Equal(broken, want) {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(want, "\n"))
	}
	if n != 16 {
		t.Errorf("%d relative links seen in the fixture, want 16", n)
	}
}

// TestSlug holds slug to the anchors GitHub gives these headings.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The Host rule":    "the-host-rule",
		"The page's files": "the-pages-files",
		"`window.tableplay`: the engine in the browser":     "windowtableplay-the-engine-in-the-browser",
		"F-TABLE-RESERVED — the reserved name `tables`":     "f-table-reserved--the-reserved-name-tables",
		"Markdown sites (MkDocs, Docusaurus, Hugo, Jekyll)": "markdown-sites-mkdocs-docusaurus-hugo-jekyll",
		"[Linked](x.md) and **bold** _words_":               "linked-and-bold-words",
		"Über snake_case 2.0":                               "über-snake_case-20",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

var (
	fence     = regexp.MustCompile("^\\s{0,3}(```|~~~)")
	codeSpan  = regexp.MustCompile("`+[^`]*`+")
	inline    = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	reference = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$`)
	heading   = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	htmlID    = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	scheme    = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// checkLinks reads one Markdown page and returns how many relative links it
// holds and a line for each that does not resolve.
func checkLinks(t *testing.T, page string) (int, []string) {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(page)
	n := 0
	var broken []string
	for i, line := range proseLines(string(text), false) {
		var targets []string
		for _, m := range inline.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := reference.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			if target == "" || scheme.MatchString(target) || strings.HasPrefix(target, "//") {
				continue
			}
			n++
			if err := resolve(t, dir, page, target); err != nil {
				broken = append(broken, fmt.Sprintf("%s:%d: %s: %v", page, i+1, target, err))
			}
		}
	}
	return n, broken
}

// proseLines returns the page's lines with fenced code blocks blanked and,
// unless keepSpans, code spans emptied, so that links shown as code are not
// taken for links (a heading's code span is part of its anchor, though).
func proseLines(text string, keepSpans bool) []string {
	lines := strings.Split(text, "\n")
	in := ""
	for i, l := range lines {
		if m := fence.FindStringSubmatch(l); m != nil {
			switch {
			case in == "":
				in = m[1]
			case in == m[1]:
				in = ""
			}
			lines[i] = ""
			continue
		}
		switch {
		case in != "":
			lines[i] = ""
		case !keepSpans:
			lines[i] = codeSpan.ReplaceAllString(l, "``")
		}
	}
	return lines
}

// resolve checks one relative target of page, which lives in dir.
func resolve(t *testing.T, dir, page, target string) error {
	path, fragment, _ := strings.Cut(target, "#")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	file := page
	if path != "" {
		file = filepath.Join(dir, filepath.FromSlash(path))
		if _, err := os.Stat(file); err != nil {
			return fmt.Errorf("no such file")
		}
	}
	if fragment == "" || !strings.EqualFold(filepath.Ext(file), ".md") {
		return nil
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !slices.Contains(anchors(string(text)), fragment) {
		return fmt.Errorf("%s has no heading with the anchor %q", filepath.Base(file), fragment)
	}
	return nil
}

// anchors lists the anchors GitHub makes for a page: one per heading (a
// repeated slug gets -1, -2, …) and any <a id> or <a name>.
func anchors(text string) []string {
	var out []string
	seen := map[string]int{}
	for _, l := range proseLines(text, true) {
		if m := heading.FindStringSubmatch(l); m != nil {
			s := slug(m[1])
			if k := seen[s]; k > 0 {
				out = append(out, fmt.Sprintf("%s-%d", s, k))
			} else {
				out = append(out, s)
			}
			seen[s]++
		}
		for _, m := range htmlID.FindAllStringSubmatch(l, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

var (
	linkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	emphasis = regexp.MustCompile(`(^|[^\p{L}\p{N}_])_{1,2}([^_]+?)_{1,2}($|[^\p{L}\p{N}_])`)
)

// slug is GitHub's anchor for a heading's text: the rendered text (link
// text kept, emphasis marks dropped) lowercased, every character but letters, digits, spaces, hyphens and
// underscores dropped, spaces turned into hyphens.
func slug(text string) string {
	text = linkText.ReplaceAllString(text, "$1")
	text = emphasis.ReplaceAllString(text, "$1$2$3")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
