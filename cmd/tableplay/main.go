// Command tableplay runs the Azure Table service engine natively.
//
//	tableplay serve [--addr 127.0.0.1:10002] [--host NAME]… [--account NAME:KEY]… [--cert FILE (--key FILE | --pwd PASSWORD)] [--oauth basic] [--web DIR] [--data DIR | --in-memory] [--memory SIZE] [--profile azure|cosmos|azurite-3.37] [--allow-anonymous] [--quiet]
//
// serves the Table API under /devstoreaccount1/ (the emulator's path-style
// account, signed with the well-known key; --account or AZURITE_ACCOUNTS
// name others), product-style at devstoreaccount1.table.localhost, and the
// playground page at /. Each account is kept in the data directory (default:
// the per-user one) and survives restarts and crashes; --in-memory keeps it
// in memory only. docs/server.md lists every flag.
// --memory sets the Go runtime's soft memory limit; by default it follows
// the live heap (twice it, at least 256 MiB).
//
//	tableplay sas --table NAME [--permissions raud] [--expiry 1h] [--start-pk …] [--end-pk …] [--policy ID]
//
// prints a service SAS URL for a table, for demos.
//
//	tableplay --version
//
// prints the version the binary was built as.
//
//	tableplay check-docs PATH…
//
// checks the <table-playground> examples of Markdown and HTML files (folders
// are walked): it prints file:line for each whose start state no longer
// loads or whose expectation no longer holds, and exits non-zero.
package main

import (
	"context"
	"crypto/tls"
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
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/persist"
	"github.com/tableplay/tableplay/site"
)

// buildVersion is the release's version, stamped by make release
// (-ldflags -X main.buildVersion=…); empty in other builds.
var buildVersion string

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tableplay:", err)
		os.Exit(2)
	}
}

const usage = `usage: tableplay serve [flags]      (tableplay serve --help lists them; docs/server.md)
       tableplay sas --table NAME [--permissions raud] [--expiry 1h] [--start-pk PK] [--start-rk RK] [--end-pk PK] [--end-rk RK] [--policy ID]
       tableplay check-docs PATH…
       tableplay --version`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "sas":
			return sasCommand(args[1:], stdout, stderr, time.Now())
		case "check-docs":
			return checkDocsCommand(args[1:], stdout, stderr, time.Now)
		case "--version", "-version", "version":
			fmt.Fprintln(stdout, version(buildVersion))
			return nil
		case "--help", "-help", "-h", "help":
			fmt.Fprintln(stdout, usage)
			return nil
		}
	}
	if len(args) == 0 || args[0] != "serve" {
		return errors.New(usage)
	}
	cfg, err := parseServe(args[1:], stdout, os.Getenv)
	if err != nil || cfg == nil {
		return err
	}
	return serveUntilStopped(*cfg, stdout, stderr)
}

// serveConfig is what tableplay serve was told.
type serveConfig struct {
	addr, web, data       string
	anon, quiet, inMemory bool
	compact, memory       int64
	prof                  profile.Profile
	hosts                 []string
	accounts              []accountSpec
	tls                   *tls.Config
	trustForwarded        bool
	tokens                *rest.Tokens
}

// parseServe reads serve's flags and environment (TABLEPLAY_HOSTS,
// AZURITE_ACCOUNTS). --help prints the flags and returns nil, nil; a bad
// value is one line of error.
func parseServe(args []string, stdout io.Writer, getenv func(string) string) (*serveConfig, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	// A bad flag is one line (main's); --help prints the flags below.
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:10002", "address to listen on")
	var hosts, accts listFlag
	fs.Var(&hosts, "host", "a host name to answer besides loopback and --addr's (repeatable; also TABLEPLAY_HOSTS, comma-separated)")
	fs.Var(&accts, "account", "an account to serve, NAME:KEY or NAME:KEY1:KEY2 in base64 (repeatable; else AZURITE_ACCOUNTS; else devstoreaccount1)")
	cert := fs.String("cert", "", "serve HTTPS with this certificate: a PEM file (with --key) or a PFX file (with --pwd)")
	key := fs.String("key", "", "the PEM private key of --cert")
	pwd := fs.String("pwd", "", "the password of the PFX file --cert")
	oauth := fs.String("oauth", "", `"basic": accept bearer tokens (HTTPS only); their signature is NOT checked`)
	role := fs.String("oauth-role", "contributor", "what a token without a roles claim naming a Table data role may do: contributor or reader")
	trust := fs.Bool("trust-forwarded", false, "take the scheme from X-Forwarded-Proto (only behind a proxy that sets it)")
	web := fs.String("web", "", "serve the page from this directory (index.html, web/) instead of the binary's own copy")
	anon := fs.Bool("allow-anonymous", false, "accept unsigned requests (signed ones are still verified)")
	quiet := fs.Bool("quiet", false, "no log line per request")
	data := fs.String("data", "", "directory that keeps the accounts (default: $XDG_DATA_HOME/tableplay or ~/.local/share/tableplay)")
	inMemory := fs.Bool("in-memory", false, "keep the accounts in memory only: they are gone when the server stops")
	compact := fs.Int64("compact-bytes", persist.DefaultCompactBytes, "log size at which an account is compacted into a snapshot")
	memory := fs.String("memory", "auto", "soft memory limit (e.g. 2GiB); auto: twice the live heap, at least 256 MiB")
	profName := fs.String("profile", profile.Default().Name, "the implementation to answer as: "+strings.Join(profile.Names(), ", ")+" (docs/profiles.md)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: tableplay serve [flags] (docs/server.md)")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("serve: %v (tableplay serve --help lists the flags)", err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("serve: unexpected argument %q (tableplay serve --help lists the flags)", fs.Arg(0))
	}
	c := &serveConfig{addr: *addr, web: *web, data: *data, anon: *anon, quiet: *quiet, inMemory: *inMemory, compact: *compact, trustForwarded: *trust}
	if *inMemory && *data != "" {
		return nil, errors.New("--data and --in-memory exclude each other")
	}
	if *compact <= 0 {
		return nil, fmt.Errorf("--compact-bytes %d: a positive number of bytes", *compact)
	}
	prof, ok := profile.ByName(*profName)
	if !ok {
		return nil, fmt.Errorf("--profile %q: want one of %s", *profName, strings.Join(profile.Names(), ", "))
	}
	c.prof = prof
	var err error
	if c.memory, err = parseMemory(*memory); err != nil {
		return nil, err
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return nil, fmt.Errorf("--addr %q: want host:port, such as 127.0.0.1:10002 or 0.0.0.0:10002", *addr)
	}
	c.hosts = append(splitHosts(getenv("TABLEPLAY_HOSTS")), hosts...)
	for _, h := range c.hosts {
		if err := checkHostName(h); err != nil {
			return nil, err
		}
	}
	if c.accounts, err = parseAccounts(accts, getenv("AZURITE_ACCOUNTS")); err != nil {
		return nil, err
	}
	if *cert != "" || *key != "" || *pwd != "" {
		if c.tls, err = tlsConfig(*cert, *key, *pwd); err != nil {
			return nil, err
		}
	}
	switch *oauth {
	case "":
	case "basic":
		if c.tls == nil && !*trust {
			return nil, errors.New("--oauth basic needs HTTPS: give --cert (or --trust-forwarded behind a TLS proxy)")
		}
		c.tokens = &rest.Tokens{}
		switch *role {
		case "contributor":
			c.tokens.Role = rest.TableDataContributor
		case "reader":
			c.tokens.Role = rest.TableDataReader
		default:
			return nil, fmt.Errorf("--oauth-role %q: want contributor or reader", *role)
		}
	default:
		return nil, fmt.Errorf("--oauth %q: the one level is basic (as Azurite's)", *oauth)
	}
	return c, nil
}

// serveUntilStopped runs the server until SIGINT or SIGTERM.
func serveUntilStopped(c serveConfig, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	warn := log.New(stderr, "", log.LstdFlags)
	opened, err := openAccounts(c, warn)
	if err != nil {
		return err
	}
	defer closeAccounts(opened)
	logger := warn
	if c.quiet {
		logger = nil
	}
	files := site.FS()
	if c.web != "" {
		dir, closeDir, err := dirFiles(c.web)
		if err != nil {
			return err
		}
		defer closeDir()
		files = dir
	}
	defer tuneRuntime(os.Getenv, c.memory)()
	sc := serverConfig{files: files, addr: c.addr, hosts: c.hosts, allowAnonymous: c.anon, clock: time.Now, log: logger,
		tokens: c.tokens, trustForwarded: c.trustForwarded}
	for i, a := range c.accounts {
		sc.accounts = append(sc.accounts, served{creds: a.credentials(), store: opened[i].store})
	}
	h := newHandlers(sc)
	var srv interface {
		Serve(net.Listener) error
		Shutdown(context.Context) error
	}
	scheme := "http"
	if c.tls != nil {
		// HTTPS is served by net/http alone: the front reads plain TCP.
		scheme = "https"
		hs := newHTTPServer(h.page, defaultLimits)
		hs.TLSConfig = c.tls
		ln = tls.NewListener(ln, c.tls)
		srv = hs
	} else {
		srv = newFront(h.page, h.api, h.takes, defaultLimits)
	}
	// Catch signals before announcing the address: whoever reads it may stop us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer watchMemstats(os.Getenv, stdout)()
	reach := reachable(ln.Addr().String())
	fmt.Fprintf(stdout, "tableplay serving on %s://%s\n", scheme, ln.Addr())
	if files == nil {
		fmt.Fprintf(stdout, "playground:        none in this build (make build embeds it; or --web DIR)\n")
	} else {
		fmt.Fprintf(stdout, "playground:        %s://%s/\n", scheme, reach)
	}
	for i, a := range c.accounts {
		fmt.Fprintf(stdout, "connection string: %s\n", connectionString(scheme, reach, a.name, a.keyEncoded))
		if len(c.accounts) == 1 && a.name == rest.WellKnownAccount {
			fmt.Fprintf(stdout, "account:           %s\n", opened[i].summary)
		} else {
			fmt.Fprintf(stdout, "account:           %s: %s\n", a.name, opened[i].summary)
		}
	}
	if len(c.hosts) > 0 {
		fmt.Fprintf(stdout, "host names:        %s (and <account>.<name>)\n", strings.Join(c.hosts, ", "))
	}
	if c.tokens != nil {
		fmt.Fprintf(stdout, "WARNING:           --oauth basic: bearer tokens are accepted WITHOUT checking their signature; anyone can make one (docs/server.md)\n")
	}
	if c.trustForwarded {
		fmt.Fprintf(stdout, "forwarded:         X-Forwarded-Proto is trusted: only a proxy must reach %s\n", ln.Addr())
	}
	if !c.prof.IsAzure() {
		fmt.Fprintf(stdout, "profile:           %s, answering as %s (docs/profiles.md)\n", c.prof.Name, c.prof.Title)
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
	// Requests finish first, then the logs are flushed and closed.
	return errors.Join(srv.Shutdown(shutdown), closeAccounts(opened))
}
