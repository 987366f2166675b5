//go:build unix

package room_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/internal/need"
)

// sqlite runs each query on its room database file with Python's sqlite3
// (the test has no SQLite of its own), in one process, and returns each
// query's rows as Python prints them; it skips without python3, or fails
// under make test.
func sqlite(t *testing.T, queries [][2]string) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		need.Missing(t, "python3", "it edits the room's SQLite file (apt-get install python3)")
	}
	in, _ := json.Marshal(queries)
	cmd := exec.Command(py, "-c", `import json, sqlite3, sys
for file, sql in json.load(sys.stdin):
    db = sqlite3.connect(file)
    rows = db.execute(sql).fetchall()
    db.commit()
    db.close()
    print(json.dumps([[r.hex() if isinstance(r, bytes) else r for r in row] for row in rows]))`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", queries, err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(queries) {
		t.Fatalf("%v: %s", queries, out)
	}
	return lines
}

// roomFiles are the rooms' database files in workerd's data directory.
func roomFiles(t *testing.T, w *workerd) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(w.dataDir(), "tableplay-room", "*.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if filepath.Base(f) != "metadata.sqlite" {
			out = append(out, f)
		}
	}
	return out
}

// TestRoomDamagedJournal: a journal row that is not a change record, a
// missing one, or one missing a part stops the room's start with a message
// naming the record (and the room's account); the room answers 500 and its
// rows are left as they were. One room for each damage, in one workerd.
func TestRoomDamagedJournal(t *testing.T) {
	cases := []struct{ name, sql, message string }{
		{"bad record", `UPDATE journal SET data = X'7b2274223a' WHERE seq = 3`, "the stored change record 3 cannot be replayed"},
		{"missing record", `DELETE FROM journal WHERE seq = 2`, "journal record 3 follows 1: journal records 2-2 are missing"},
		{"missing part", `UPDATE journal SET parts = 2 WHERE seq = 3`, "journal record 3 lacks parts 1-1"},
	}
	w := startWorkerd(t)
	ctx := context.Background()
	rooms := map[string]int{} // account → case
	clients := make([]*aztables.Client, len(cases))
	for i := range cases {
		r, tc := roomTable(t, w, nil, "kept")
		for _, rk := range []string{"a", "b", "c"} {
			if _, err := tc.AddEntity(ctx, entityJSON("p", rk, map[string]any{"V": rk}), nil); err != nil {
				t.Fatal(err)
			}
		}
		rooms[r.Account], clients[i] = i, tc
	}
	w.kill()
	files := roomFiles(t, w)
	if len(files) != len(cases) {
		t.Fatalf("room files: %v", files)
	}
	const journal = `SELECT seq, part, parts, data FROM journal ORDER BY seq, part`
	var q [][2]string
	for _, f := range files {
		q = append(q, [2]string{f, `SELECT v FROM meta WHERE k = 'account'`})
	}
	accounts := sqlite(t, q)
	q = q[:0]
	for i, f := range files {
		c, ok := rooms[strings.Trim(accounts[i], `[]"`)]
		if !ok {
			t.Fatalf("%s holds room %s", f, accounts[i])
		}
		q = append(q, [2]string{f, cases[c].sql}, [2]string{f, journal})
	}
	damaged := sqlite(t, q)
	w.start()
	for i, c := range cases {
		_, err := clients[i].GetEntity(ctx, "p", "a", nil)
		wantStatus(t, err, 500, "InternalError")
		_, err = clients[i].AddEntity(ctx, entityJSON("p", "d", map[string]any{"V": "d"}), nil)
		wantStatus(t, err, 500, "InternalError")
		if !strings.Contains(w.output(), c.message) {
			t.Errorf("%s: workerd's log does not say %q:\n%s", c.name, c.message, w.output())
		}
	}
	w.kill()
	q = q[:0]
	for _, f := range files {
		q = append(q, [2]string{f, journal})
	}
	for i, after := range sqlite(t, q) {
		if before := damaged[2*i+1]; after != before || len(after) < 100 {
			t.Errorf("room %s: the journal changed:\n%s\nwas\n%s", accounts[i], after, before)
		}
	}
}
