//go:build unix

package room_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sqlite runs SQL on a room's database file with Python's sqlite3 (the
// test has no SQLite of its own); it skips without python3, or fails under
// make test.
func sqlite(t *testing.T, file, sql string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("TABLEPLAY_REQUIRE_ALL") != "" {
			t.Fatal("python3 is missing")
		}
		t.Skip("python3 is missing: it edits the room's SQLite file")
	}
	out, err := exec.Command(py, "-c", `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute(sys.argv[2]).fetchall()
db.commit()
print(rows)`, file, sql).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", sql, err, out)
	}
	return strings.TrimSpace(string(out))
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

// TestRoomDamagedJournal: a journal row that is not a change record, or a
// missing one, stops the room's start with a message naming the record;
// the room answers 500 and its rows are left as they were.
func TestRoomDamagedJournal(t *testing.T) {
	for _, c := range []struct{ name, sql, message string }{
		{"bad record", `UPDATE journal SET data = X'7b2274223a' WHERE seq = 3`, "the stored change record 3 cannot be replayed"},
		{"missing record", `DELETE FROM journal WHERE seq = 2`, "journal record 3 follows 1: journal records 2-2 are missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := startWorkerd(t)
			r := w.mustRoom(nil)
			tc := tableClient(t, w, r, "kept")
			ctx := context.Background()
			if _, err := tc.CreateTable(ctx, nil); err != nil {
				t.Fatal(err)
			}
			for _, rk := range []string{"a", "b", "c"} {
				if _, err := tc.AddEntity(ctx, entityJSON("p", rk, map[string]any{"V": rk}), nil); err != nil {
					t.Fatal(err)
				}
			}
			w.kill()
			files := roomFiles(t, w)
			if len(files) != 1 {
				t.Fatalf("room files: %v", files)
			}
			sqlite(t, files[0], c.sql)
			before := sqlite(t, files[0], `SELECT seq, part, hex(data) FROM journal ORDER BY seq`)
			w.start()
			_, err := tc.GetEntity(ctx, "p", "a", nil)
			wantStatus(t, err, 500, "InternalError")
			_, err = tc.AddEntity(ctx, entityJSON("p", "d", map[string]any{"V": "d"}), nil)
			wantStatus(t, err, 500, "InternalError")
			if !strings.Contains(w.output(), c.message) {
				t.Fatalf("workerd's log does not say %q:\n%s", c.message, w.output())
			}
			w.kill()
			if after := sqlite(t, files[0], `SELECT seq, part, hex(data) FROM journal ORDER BY seq`); after != before {
				t.Fatalf("the journal changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}
