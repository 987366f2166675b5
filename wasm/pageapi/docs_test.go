package pageapi

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// loaderMembers are window.tableplay's members web/api.js makes itself
// (no row of the engine's): docs/api.md lists them beside the rows.
var loaderMembers = []string{"ready", "fetch", "account", "keepWrites", "write", "onchange", "tableplay:change"}

// documented is one `name(params)` of docs/api.md's members table.
type documented struct {
	name   string
	params []string // as written: name, name? or an object's shape {…}
	called bool     // written with parentheses
}

// splitTop splits s at sep outside braces and brackets.
func splitTop(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
		}
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			out = append(out, s[start:i])
			start = i + len(sep)
		}
	}
	return append(out, s[start:])
}

// parseMember reads one backticked member: name, name(…) or name(a, b?).
func parseMember(code string) documented {
	code = strings.ReplaceAll(code, `\|`, "|")
	open := strings.IndexByte(code, '(')
	if open < 0 {
		return documented{name: code}
	}
	d := documented{name: code[:open], called: true}
	inner := strings.TrimSuffix(code[open+1:], ")")
	if inner != "" {
		for _, p := range splitTop(inner, ", ") {
			d.params = append(d.params, strings.TrimSpace(p))
		}
	}
	return d
}

// membersTable reads docs/api.md's members table: its first column's
// members, and each row's second column by member name.
func membersTable(t *testing.T) ([]documented, map[string]string) {
	t.Helper()
	b, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "| member | what it does |")
	if start < 0 {
		t.Fatal("docs/api.md has no members table")
	}
	code := regexp.MustCompile("`([^`]+)`")
	var members []documented
	says := map[string]string{}
	for _, line := range strings.Split(doc[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := splitTop(strings.TrimPrefix(line, "| "), " | ")
		for _, m := range code.FindAllStringSubmatch(cells[0], -1) {
			d := parseMember(m[1])
			members = append(members, d)
			says[d.name] = strings.Join(cells[1:], " | ")
		}
	}
	return members, says
}

// TestDocsListEveryRow holds docs/api.md to the rows: every function of the
// page's object is documented with its parameters (an optional one marked
// ?, or an object parameter shown by its shape), the account functions are
// the ones account(name) lists, the connection's in connect's row, and
// nothing else is documented but the loader's own members.
func TestDocsListEveryRow(t *testing.T) {
	members, says := membersTable(t)
	byName := map[string]documented{}
	for _, d := range members {
		byName[d.name] = d
	}
	var accountNames []string
	for _, f := range Funcs {
		if f.Scope == Endpoint {
			continue
		}
		if f.Scope == Account {
			accountNames = append(accountNames, f.Name)
		}
		d, ok := byName[f.Name]
		if !ok {
			t.Errorf("docs/api.md does not list %s", f.Name)
			continue
		}
		checkParams(t, f, d)
	}
	for _, d := range members {
		if !slices.ContainsFunc(Funcs, func(f Func) bool { return f.Name == d.name && f.Scope != Endpoint }) && !slices.Contains(loaderMembers, d.name) {
			t.Errorf("docs/api.md lists %s, which is neither a row nor the loader's", d.name)
		}
	}
	// account(name)'s row names the functions bound to an account.
	listed := regexp.MustCompile("`([a-zA-Z]+)`").FindAllStringSubmatch(says["account"], -1)
	var got []string
	for _, m := range listed {
		if m[1] != "name" && m[1] != "fetch" {
			got = append(got, m[1])
		}
	}
	slices.Sort(got)
	slices.Sort(accountNames)
	if !slices.Equal(got, accountNames) {
		t.Errorf("account(name) in docs/api.md lists %v; the account rows are %v", got, accountNames)
	}
	// connect's row names the connection's functions with their parameters.
	for _, f := range Funcs {
		if f.Scope != Endpoint {
			continue
		}
		var names []string
		for _, p := range f.Params {
			names = append(names, p.Name)
		}
		if sig := f.Name + "(" + strings.Join(names, ", ") + ")"; !strings.Contains(says["connect"], "`"+sig) && !strings.Contains(says["connect"], ", "+sig) {
			t.Errorf("connect in docs/api.md does not show %s", sig)
		}
	}
}

// checkParams compares a row's parameters with their documentation.
func checkParams(t *testing.T, f Func, d documented) {
	t.Helper()
	if !d.called {
		t.Errorf("docs/api.md shows %s without its parameters", f.Name)
		return
	}
	if len(d.params) != len(f.Params) {
		t.Errorf("docs/api.md shows %s with %d parameters %v; the row has %d", f.Name, len(d.params), d.params, len(f.Params))
		return
	}
	for i, p := range f.Params {
		written := d.params[i]
		if strings.HasPrefix(written, "{") {
			if p.Kind != JSON {
				t.Errorf("%s: %s is shown as an object but passed as kind %d", f.Name, p.Name, p.Kind)
			}
			continue
		}
		want := p.Name
		if p.Optional {
			want += "?"
		}
		if written != want {
			t.Errorf("docs/api.md shows %s's parameter %d as %q; the row says %q", f.Name, i+1, written, want)
		}
	}
}
