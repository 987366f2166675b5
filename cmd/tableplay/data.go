package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/persist"
)

// defaultDataDir is where the account is kept without --data: the per-user
// data directory ($XDG_DATA_HOME/tableplay or ~/.local/share/tableplay; the
// user's application-data folder on macOS and Windows).
func defaultDataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "tableplay"), nil
	}
	switch runtime.GOOS {
	case "darwin", "ios", "windows", "plan9":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "tableplay"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory for the default data directory: pass --data DIR or --in-memory")
	}
	return filepath.Join(home, ".local", "share", "tableplay"), nil
}

// closeCompactBytes is the log a clean stop compacts into a snapshot
// first: change records replay at about 100 ns a byte (a typical entity's
// record is ~480 bytes, read by encoding/json), so 1 MiB of them, about
// 2,000 entities, take ~0.1 s of the next start; 8 MiB took a second. A
// snapshot's blocks load several times faster.
const closeCompactBytes = 1 << 20

// account is the store the server serves and how to put it away.
type account struct {
	store *store.Store
	// summary says where the account lives, for the start-up lines.
	summary string
	// close makes every change durable and releases the data directory;
	// calls after the first do nothing.
	close func() error
	// log is the data directory's log; nil in memory.
	log *persist.Log
}

// dataOptions say where the account is kept.
type dataOptions struct {
	dir          string // "" for the default directory
	inMemory     bool
	compactBytes int64
	profile      profile.Profile     // the implementation the account behaves as
	report       func(string)        // a cut tail, a failed compaction
	fail         func(err error)     // the log cannot write: the process must stop
	memory       int64               // --memory, 0 for auto (quietLoad)
	getenv       func(string) string // nil: os.Getenv
}

// filesSize is the size of the files directly in dir (0 when it cannot be
// read: the log's own open reports why).
func filesSize(dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}

// openAccount loads the account from its data directory (replaying the log)
// or, with inMemory, starts an empty one.
func openAccount(o dataOptions, clock func() time.Time) (account, error) {
	if o.inMemory {
		return account{
			store:   store.New(store.Options{Clock: clock, Profile: o.profile}),
			summary: "in memory (--in-memory): gone when the server stops",
			close:   func() error { return nil },
		}, nil
	}
	dir := o.dir
	if dir == "" {
		d, err := defaultDataDir()
		if err != nil {
			return account{}, err
		}
		dir = d
	}
	lg, err := persist.Open(dir, persist.Options{CompactBytes: o.compactBytes, CloseCompactBytes: closeCompactBytes, Report: o.report, OnFail: o.fail})
	if err != nil {
		return account{}, err
	}
	want := o.profile.Name
	if want == "" {
		want = profile.Default().Name
	}
	kept, marked, err := keptProfile(dir)
	if err == nil && marked && kept != want {
		err = wrongProfile(dir, kept, want)
	}
	if err != nil {
		lg.Close()
		return account{}, err
	}
	st := store.New(store.Options{Clock: clock, Journal: lg, Profile: o.profile})
	getenv := o.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	restore := quietLoad(getenv, o.memory, filesSize(dir))
	rep, err := lg.Recover(st)
	restore()
	if err == nil && !marked && want != kept {
		// An unmarked directory is azure's: another profile may start
		// only an empty one, and marks it.
		if page, _ := st.ListTables(store.TableQuery{Top: 1}); len(page.Names) > 0 {
			err = wrongProfile(dir, kept, want)
		} else if rep.ReadOnly == "" {
			// (Read-only, it stays empty: no mark is needed, none written.)
			err = markProfile(dir, want)
		}
	}
	if err != nil {
		lg.Close()
		return account{}, err
	}
	return account{store: st, summary: rep.String(), close: sync.OnceValue(lg.Close), log: lg}, nil
}

// profileFile names the profile a data directory's account was kept under;
// a directory without one holds an azure account.
const profileFile = "PROFILE"

// markProfile writes the profile's name into dir's PROFILE durably before
// the account takes its first write: a mark lost in a crash would leave
// the account's log to be served as azure's (wrongProfile's advice).
func markProfile(dir, name string) error {
	return persist.WriteFileDurable(filepath.Join(dir, profileFile), []byte(name+"\n"), 0o600)
}

// keptProfile returns the profile a data directory's account was kept
// under, and whether the directory says so (an older or azure directory
// does not).
func keptProfile(dir string) (string, bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, profileFile))
	if errors.Is(err, os.ErrNotExist) {
		return profile.Default().Name, false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(b)), true, nil
}

// wrongProfile is the error for a data directory opened under a profile
// other than its account's. An account kept under cosmos may hold tables
// whose names differ only in case, which azure would fold into one
// (F-COSMOS-TABLE-CASE); an azure account opened as cosmos would answer
// differently from the account its clients wrote.
func wrongProfile(dir, kept, want string) error {
	return fmt.Errorf("the data directory %s keeps an account of the %s profile: start it with --profile %s, or give --profile %s a directory of its own (--data)", dir, kept, kept, want)
}

// accountsDir holds the data of every account but the well-known one, each
// in a directory named after it (DIR/accounts/NAME), so that accounts never
// share a log. devstoreaccount1 keeps DIR itself: a data directory written
// before there were accounts opens as it was.
const accountsDir = "accounts"

// accountDir is where an account's data lives under the data directory.
func accountDir(root, name string) string {
	if name == rest.WellKnownAccount {
		return root
	}
	return filepath.Join(root, accountsDir, name)
}

// openAccounts opens every account serve was given, each in its own
// directory (or in memory); on an error the ones opened are closed again.
func openAccounts(c serveConfig, warn *log.Logger) ([]account, error) {
	root := c.data
	if root == "" && !c.inMemory {
		d, err := defaultDataDir()
		if err != nil {
			return nil, err
		}
		root = d
		if !c.prof.IsAzure() && c.prof.Name != "" {
			// Another implementation's account is another account: Cosmos
			// keeps tables Azure would fold into one (F-COSMOS-TABLE-CASE).
			root = d + "-" + c.prof.Name
		}
	}
	var out []account
	for _, a := range c.accounts {
		acct, err := openAccount(dataOptions{dir: accountDir(root, a.name), inMemory: c.inMemory, compactBytes: c.compact, profile: c.prof, memory: c.memory, getenv: os.Getenv,
			report: func(s string) { warn.Printf("%s: %s", a.name, s) },
			fail: func(err error) {
				// Memory is ahead of the disk: answering more requests would
				// acknowledge writes a restart cannot bring back.
				warn.Printf("stopping: %s: %v", a.name, err)
				os.Exit(1)
			}}, time.Now)
		if err != nil {
			closeAccounts(out)
			return nil, err
		}
		out = append(out, acct)
	}
	return out, nil
}

// closeAccounts closes the accounts' logs.
func closeAccounts(list []account) error {
	var errs []error
	for _, a := range list {
		errs = append(errs, a.close())
	}
	return errors.Join(errs...)
}
