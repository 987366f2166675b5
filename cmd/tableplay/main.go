// Command tableplay runs the Azure Table service engine natively.
//
//	tableplay serve [--addr 127.0.0.1:10002] [--web DIR] [--data DIR | --in-memory] [--memory SIZE] [--profile azure|cosmos|azurite-3.37] [--allow-anonymous] [--quiet]
//
// serves the Table API under /devstoreaccount1/ (the emulator's path-style
// account, signed with the well-known key) and the playground page at /. The
// account is kept in the data directory (default: the per-user one) and
// survives restarts and crashes; --in-memory keeps it in memory only.
// --memory sets the Go runtime's soft memory limit; by default it follows
// the live heap (twice it, at least 256 MiB).
//
//	tableplay sas --table NAME [--permissions raud] [--expiry 1h] [--start-pk …] [--end-pk …] [--policy ID]
//
// prints a service SAS URL for a table, for demos.
//
//	tableplay check-docs PATH…
//
// checks the <table-playground> examples of Markdown and HTML files (folders
// are walked): it prints file:line for each whose start state no longer
// loads or whose expectation no longer holds, and exits non-zero.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/persist"
	"github.com/tableplay/tableplay/site"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tableplay:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "sas" {
		return sasCommand(args[1:], stdout, stderr, time.Now())
	}
	if len(args) > 0 && args[0] == "check-docs" {
		return checkDocsCommand(args[1:], stdout, stderr, time.Now)
	}
	if len(args) == 0 || args[0] != "serve" {
		return errors.New("usage: tableplay serve [--addr 127.0.0.1:10002] [--web DIR] [--data DIR | --in-memory] [--memory SIZE] [--profile azure|cosmos|azurite-3.37] [--allow-anonymous] [--quiet]\n       tableplay sas --table NAME [--permissions raud] [--expiry 1h] [--start-pk PK] [--start-rk RK] [--end-pk PK] [--end-rk RK] [--policy ID]\n       tableplay check-docs PATH…")
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:10002", "address to listen on")
	web := fs.String("web", "", "serve the page from this directory (index.html, web/) instead of the binary's own copy")
	anon := fs.Bool("allow-anonymous", false, "accept unsigned requests (signed ones are still verified)")
	quiet := fs.Bool("quiet", false, "no log line per request")
	data := fs.String("data", "", "directory that keeps the account (default: $XDG_DATA_HOME/tableplay or ~/.local/share/tableplay)")
	inMemory := fs.Bool("in-memory", false, "keep the account in memory only: it is gone when the server stops")
	compact := fs.Int64("compact-bytes", persist.DefaultCompactBytes, "log size at which the account is compacted into a snapshot")
	memory := fs.String("memory", "auto", "soft memory limit (e.g. 2GiB); auto: twice the live heap, at least 256 MiB")
	profName := fs.String("profile", profile.Default().Name, "the implementation to answer as: "+strings.Join(profile.Names(), ", ")+" (docs/profiles.md)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *inMemory && *data != "" {
		return errors.New("--data and --in-memory exclude each other")
	}
	prof, ok := profile.ByName(*profName)
	if !ok {
		return fmt.Errorf("--profile %q: want one of %s", *profName, strings.Join(profile.Names(), ", "))
	}
	memLimit, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	warn := log.New(stderr, "", log.LstdFlags)
	acct, err := openAccount(dataOptions{dir: *data, inMemory: *inMemory, compactBytes: *compact, profile: prof, memory: memLimit, getenv: os.Getenv,
		report: func(s string) { warn.Print(s) },
		fail: func(err error) {
			// Memory is ahead of the disk: answering more requests would
			// acknowledge writes a restart cannot bring back.
			warn.Printf("stopping: %v", err)
			os.Exit(1)
		}}, time.Now)
	if err != nil {
		return err
	}
	defer acct.close()
	logger := warn
	if *quiet {
		logger = nil
	}
	files := site.FS()
	if *web != "" {
		dir, closeDir, err := dirFiles(*web)
		if err != nil {
			return err
		}
		defer closeDir()
		files = dir
	}
	defer tuneRuntime(os.Getenv, memLimit)()
	page, api := newHandlers(serverConfig{files: files, addr: *addr, allowAnonymous: *anon, clock: time.Now, log: logger, store: acct.store})
	srv := newFront(page, api, defaultLimits, logger)
	// Catch signals before announcing the address: whoever reads it may stop us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer watchMemstats(os.Getenv, stdout)()
	fmt.Fprintf(stdout, "tableplay serving on http://%s\n", ln.Addr())
	if files == nil {
		fmt.Fprintf(stdout, "playground:        none in this build (make build embeds it; or --web DIR)\n")
	} else {
		fmt.Fprintf(stdout, "playground:        http://%s/\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "connection string: %s\n", connectionString(ln.Addr().String()))
	fmt.Fprintf(stdout, "account:           %s\n", acct.summary)
	if !prof.IsAzure() {
		fmt.Fprintf(stdout, "profile:           %s, answering as %s (docs/profiles.md)\n", prof.Name, prof.Title)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Requests finish first, then the log is flushed and closed.
	return errors.Join(srv.Shutdown(shutdown), acct.close())
}
