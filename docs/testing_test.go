package docs

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestTestingListsEveryTestFile: every Go test file and every e2e test of
// the repository is named in testing.md's tables (a file, a folder or a
// pattern such as core/rest/batch*_test.go), so a new test cannot go
// unlisted; and every name there still matches a file.
func TestTestingListsEveryTestFile(t *testing.T) {
	doc, err := os.ReadFile("testing.md")
	if err != nil {
		t.Fatal(err)
	}
	names := listedTests(string(doc))
	files, err := testFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	missing, unmatched := coverage(names, files)
	for _, f := range missing {
		t.Errorf("%s is not listed in docs/testing.md (add it with what it proves)", f)
	}
	for _, n := range unmatched {
		t.Errorf("docs/testing.md lists %s, which matches no test file", n)
	}
}

// TestTestingCheckFails: the check sees a file left out, a bare name
// resolved against its row's and its section's folder, and a stale name.
func TestTestingCheckFails(t *testing.T) {
	doc := "### `core/a`\n\n| file | proves |\n|---|---|\n| `x_test.go`, `core/b/y_test.go`, `z_test.go` | things |\n| `core/c` | all of c |\n| `gone_test.go` | nothing |\n"
	files := []string{"core/a/x_test.go", "core/b/y_test.go", "core/b/z_test.go", "core/c/k_test.go", "core/a/new_test.go"}
	missing, unmatched := coverage(listedTests(doc), files)
	if strings.Join(missing, " ") != "core/a/new_test.go" || strings.Join(unmatched, " ") != "core/a/gone_test.go" {
		t.Fatalf("missing %v, unmatched %v", missing, unmatched)
	}
}

var backticked = regexp.MustCompile("`([^`]+)`")

// listedTests reads the names in the first cell of each table row: a name
// with a slash is from the repository's root, a bare one from the folder
// of the name before it in the cell, else from the section heading's first
// folder. A name is a file, a folder (all its tests) or a pattern.
func listedTests(doc string) []string {
	var names []string
	section := ""
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			if m := backticked.FindStringSubmatch(line); m != nil {
				section = strings.TrimSuffix(m[1], "/")
			}
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(line[1:], "|")
		dir := section
		for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
			name := strings.TrimSuffix(m[1], "/")
			if !strings.Contains(name, ".") && !strings.Contains(name, "*") {
				if strings.Contains(name, "/") {
					dir = name
					names = append(names, name)
				}
				continue // a word in backticks, not a path
			}
			if !strings.HasSuffix(name, "_test.go") && !strings.HasSuffix(name, ".test.js") {
				continue
			}
			if strings.Contains(name, "/") {
				dir = path.Dir(name)
			} else {
				name = path.Join(dir, name)
			}
			names = append(names, name)
		}
	}
	return names
}

// coverage returns the files no name covers and the names that cover no
// file, both sorted.
func coverage(names, files []string) (missing, unmatched []string) {
	used := map[string]bool{}
	for _, f := range files {
		covered := false
		for _, n := range names {
			ok, _ := path.Match(n, f)
			if ok || path.Dir(f) == n {
				covered, used[n] = true, true
			}
		}
		if !covered {
			missing = append(missing, f)
		}
	}
	for _, n := range names {
		if !used[n] {
			unmatched = append(unmatched, n)
		}
	}
	sort.Strings(missing)
	sort.Strings(unmatched)
	return missing, unmatched
}

// testFiles lists the repository's Go test files and e2e tests, relative
// to root, leaving out what is not the project's (node_modules,
// third_party) or is built (bin, site, web/build, workers/build).
func testFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch rel {
			case ".git", "node_modules", "third_party", "bin", "site", "web/build", "workers/build":
				return filepath.SkipDir
			}
			if strings.HasSuffix(rel, "/node_modules") || strings.HasSuffix(rel, "/testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") || (path.Dir(rel) == "e2e" && strings.HasSuffix(rel, ".test.js")) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}
