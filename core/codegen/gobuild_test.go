package codegen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildGoPrograms builds the generated programs under dir/cmd/<name> and
// returns the command line that runs one. Each program is compiled exactly
// as generated (go build of several main packages compiles them and links
// none); then one binary is linked that holds them all, each program's
// package renamed and its main exported, because linking every program
// against the SDK on its own took most of this package's test time.
func buildGoPrograms(t *testing.T, dir string, env []string, names []string) func(name string) []string {
	t.Helper()
	if out, errOut, failed := run(t, dir, env, "go", "build", "./cmd/..."); failed {
		t.Fatalf("generated Go does not build:\n%s%s", out, errOut)
	}
	mainFunc := regexp.MustCompile(`(?m)^func main\(\) \{$`)
	mainPkg := regexp.MustCompile(`(?m)^package main$`)
	var imports, cases strings.Builder
	for i, name := range names {
		src, err := os.ReadFile(filepath.Join(dir, "cmd", name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(mainFunc.FindAllIndex(src, -1)); n != 1 || len(mainPkg.FindAllIndex(src, -1)) != 1 {
			t.Fatalf("%s: not one package main with one func main (%d)", name, n)
		}
		pkg := fmt.Sprintf("p%d", i)
		src = mainPkg.ReplaceAll(src, []byte("package "+pkg))
		src = mainFunc.ReplaceAll(src, []byte("func Main() {"))
		write(t, filepath.Join(dir, "all", pkg, "main.go"), string(src))
		fmt.Fprintf(&imports, "\t%s \"snippets/all/%s\"\n", pkg, pkg)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\t%s.Main()\n", name, pkg)
	}
	write(t, filepath.Join(dir, "all", "main.go"), "package main\n\nimport (\n\t\"os\"\n\n"+imports.String()+")\n\n"+
		"func main() {\n\tname := os.Args[1]\n\tos.Args = append(os.Args[:1], os.Args[2:]...)\n\tswitch name {\n"+cases.String()+"\tdefault:\n\t\tos.Exit(3)\n\t}\n}\n")
	bin := filepath.Join(dir, "bin", "all")
	if out, errOut, failed := run(t, dir, env, "go", "build", "-o", bin, "./all"); failed {
		t.Fatalf("the programs do not link together:\n%s%s", out, errOut)
	}
	return func(name string) []string { return []string{bin, name} }
}
