package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tableplay/tableplay/internal/need"
)

// needCommand is need for a command on PATH.
func needCommand(t *testing.T, name, fix string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		need.Missing(t, name, fix)
	}
	return path
}

// needDataTables is need for the pinned @azure/data-tables under the
// repository's node_modules; it returns that node_modules.
func needDataTables(t *testing.T, root string) string {
	t.Helper()
	modules := filepath.Join(root, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@azure", "data-tables", "package.json")); err != nil {
		need.Missing(t, "node_modules/@azure/data-tables", "npm ci (or make test) installs it")
	}
	return modules
}
