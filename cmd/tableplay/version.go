package main

import (
	"runtime/debug"
	"strings"
)

// version is what --version prints: the module version the binary was
// built as (a release's, stamped by make release with -ldflags -X, or the
// one go install records), its VCS revision and whether the tree had
// changes, from the build information.
func version(stamped string) string {
	v, rev, dirty := stamped, "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	var b strings.Builder
	b.WriteString("tableplay " + v)
	if rev != "" {
		b.WriteString(" (" + rev[:min(12, len(rev))])
		if dirty {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	return b.String()
}
