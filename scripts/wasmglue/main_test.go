package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRewriteGoGlue rewrites the wasm_exec.js of the Go running the test:
// no assignment to the global object is left, and Go is handed the private
// view of it.
func TestRewriteGoGlue(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatalf("no wasm_exec.js in this Go installation: %v", err)
	}
	out, err := rewrite(string(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range private {
		if strings.Contains(out, "globalThis."+name+" =") {
			t.Errorf("globalThis.%s is still assigned", name)
		}
	}
	if !strings.Contains(out, "[goScope, 5]") || !strings.HasSuffix(out, "export { Go, goGlobals };\n") {
		t.Errorf("Go is not handed goScope, or the module exports are missing")
	}
}

// TestRewriteRefusesUnknownShape: a glue without the expected anchors is an
// error, not a module that would leak names again.
func TestRewriteRefusesUnknownShape(t *testing.T) {
	for _, src := range []string{
		"",
		"globalThis.fs = {}; globalThis.process = {}; globalThis.path = {};",                           // no Go
		"globalThis.fs = {}; globalThis.process = {}; globalThis.path = {}; globalThis.Go = class {};", // no global handed to Go
	} {
		if _, err := rewrite(src); err == nil {
			t.Errorf("rewrite(%q) succeeded", src)
		}
	}
}
