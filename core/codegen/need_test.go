package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireAll names the variable make test, make unit and .ci/run export:
// with it, a missing dependency fails the test instead of skipping it, so
// that nothing is skipped where CI runs.
const requireAll = "TABLEPLAY_REQUIRE_ALL"

// need stops a test whose dependency is missing: a skip whose one line says
// what to run, or, with TABLEPLAY_REQUIRE_ALL set, a failure saying the same.
func need(t *testing.T, missing, fix string) {
	t.Helper()
	if v := os.Getenv(requireAll); v != "" && v != "0" {
		t.Fatalf("%s is missing: %s (%s=%s makes this a failure)", missing, fix, requireAll, v)
	}
	t.Skipf("%s is missing: %s", missing, fix)
}

// needCommand is need for a command on PATH.
func needCommand(t *testing.T, name, fix string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		need(t, name, fix)
	}
	return path
}

// needDataTables is need for the pinned @azure/data-tables under the
// repository's node_modules; it returns that node_modules.
func needDataTables(t *testing.T, root string) string {
	t.Helper()
	modules := filepath.Join(root, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@azure", "data-tables", "package.json")); err != nil {
		need(t, "node_modules/@azure/data-tables", "npm ci (or make test) installs it")
	}
	return modules
}
