package tableerr

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fidelityID matches a decision id as code, tests, transcripts and rule
// cards cite it: F- and upper-case words joined by dashes.
var fidelityID = regexp.MustCompile(`\bF-[A-Z0-9]+(?:-[A-Z0-9]+)*\b`)

// repoRoot finds the directory holding go.mod above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		dir = filepath.Dir(dir)
	}
	t.Fatal("go.mod not found above the package")
	return ""
}

// definedIDs reads the ids docs/fidelity.md defines: one "### F-…" heading
// each, every entry saying what tableplay does, its evidence and confidence.
func definedIDs(t *testing.T, root string) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "fidelity.md"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	sections := strings.Split(string(doc), "\n### ")
	for _, sec := range sections[1:] {
		id := fidelityID.FindString(sec)
		if id == "" || !strings.HasPrefix(sec, id) {
			t.Errorf("docs/fidelity.md: heading %q does not start with an F- id", strings.SplitN(sec, "\n", 2)[0])
			continue
		}
		if ids[id] {
			t.Errorf("docs/fidelity.md defines %s twice", id)
		}
		ids[id] = true
		for _, field := range []string{"**tableplay:**", "**Evidence:**", "**Confidence:**"} {
			if !strings.Contains(sec, field) {
				t.Errorf("docs/fidelity.md: %s has no %s", id, field)
			}
		}
	}
	if len(ids) < 28 {
		t.Errorf("docs/fidelity.md defines %d ids; expected at least the 28 carried decisions", len(ids))
	}
	return ids
}

// skipDir lists what is not the project's own text: generated, installed or
// git's own files (npm packages wherever installed: make perf installs Azurite
// under cmd/perf/azurite).
func skipDir(rel string) bool {
	switch rel {
	case ".git", "web/build", "bin", "e2e/artifacts":
		return true
	}
	return filepath.Base(rel) == "node_modules"
}

// TestFidelityIDs checks that every decision id cited anywhere in the
// repository is defined in docs/fidelity.md, that every disputed rule card
// cites one, and that nothing refers to reference documents kept outside the
// repository.
func TestFidelityIDs(t *testing.T) {
	root := repoRoot(t)
	defined := definedIDs(t, root)
	outside := []string{"SPEC" + ".md", "DESIGN" + ".md", "SPEC" + " §", "../" + "shared"}
	// The house decisions' old numbering (D and a number), which only the outside
	// documents define.
	oldID := regexp.MustCompile(`\bD([1-9]|1[0-9]|2[0-8])\b`)
	dispute := regexp.MustCompile(`Dispute:\s*"([^"\\]|\\.)*"`)
	cited := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipDir(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Base(rel) == "package-lock.json" || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // binary
		}
		for _, name := range outside {
			if bytes.Contains(b, []byte(name)) {
				t.Errorf("%s refers to %q, which is not in the repository", rel, name)
			}
		}
		if m := oldID.Find(b); m != nil {
			t.Errorf("%s cites %s, an id docs/fidelity.md does not use", rel, m)
		}
		for _, id := range fidelityID.FindAllString(string(b), -1) {
			cited++
			if !defined[id] {
				t.Errorf("%s cites %s, which docs/fidelity.md does not define", rel, id)
			}
		}
		if strings.HasSuffix(rel, ".go") {
			for _, lit := range dispute.FindAllString(string(b), -1) {
				if !fidelityID.MatchString(lit) {
					t.Errorf("%s: a disputed rule card cites no F- id: %s", rel, lit)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Error("no F- id is cited anywhere: the scan is not reading the repository")
	}
}
