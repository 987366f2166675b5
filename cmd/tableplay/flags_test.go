package main

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// TestBadFlagValuesAreOneLine: every bad value is refused before anything
// starts, with one line naming the flag; main prints it and exits 2.
func TestBadFlagValuesAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"--nope"},
		{"--addr", "nowhere"},
		{"--host", "tableplay:10002"},
		{"--host", "*.example"},
		{"--account", "x:abc"},
		{"--account", "Upper:" + rest.WellKnownKey},
		{"--account", "acct:not base64!"},
		{"--account", "acct:" + rest.WellKnownKey, "--account", "acct:" + rest.WellKnownKey},
		{"--cert", "/nonexistent.pem", "--key", "/nonexistent.key"},
		{"--cert", "/nonexistent.pfx", "--pwd", "x"},
		{"--cert", "c.pem"},
		{"--key", "k.pem"},
		{"--oauth", "basic"},
		{"--oauth", "full"},
		{"--oauth", "basic", "--trust-forwarded", "--oauth-role", "owner"},
		{"--profile", "dynamo"},
		{"--memory", "lots"},
		{"--compact-bytes", "0"},
		{"--data", "/tmp/x", "--in-memory"},
		{"extra"},
	} {
		_, err := parseServe(args, io.Discard, func(string) string { return "" })
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", args, err)
		}
	}
	if _, err := parseServe(nil, io.Discard, func(k string) string {
		return map[string]string{"AZURITE_ACCOUNTS": "ok1:" + rest.WellKnownKey + ";bad"}[k]
	}); err == nil {
		t.Error("a bad AZURITE_ACCOUNTS entry was accepted")
	}
	// The process: one line on stderr, exit status 2.
	cmd := exec.Command(os.Args[0], "serve", "--oauth", "full")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %v, stderr %q", err, stderr.String())
	}
}

// TestAccountsFromTheEnvironment reads AZURITE_ACCOUNTS as Azurite does
// (name:key1[:key2];…) and TABLEPLAY_HOSTS; --account wins over the former.
func TestAccountsFromTheEnvironment(t *testing.T) {
	env := map[string]string{"AZURITE_ACCOUNTS": "acct1:" + rest.WellKnownKey + ":" + secondKey + "; acct2:" + secondKey + ";", "TABLEPLAY_HOSTS": "tableplay, azurite"}
	c, err := parseServe(nil, io.Discard, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.accounts) != 2 || c.accounts[0].name != "acct1" || c.accounts[0].key2 == nil || c.accounts[1].name != "acct2" {
		t.Errorf("accounts %+v", c.accounts)
	}
	if strings.Join(c.hosts, ",") != "tableplay,azurite" {
		t.Errorf("hosts %q", c.hosts)
	}
	c, err = parseServe([]string{"--account", "mine:" + secondKey, "--host", "devbox"}, io.Discard, func(k string) string { return env[k] })
	if err != nil || len(c.accounts) != 1 || c.accounts[0].name != "mine" || strings.Join(c.hosts, ",") != "tableplay,azurite,devbox" {
		t.Errorf("%v %+v %q", err, c.accounts, c.hosts)
	}
	c, _ = parseServe(nil, io.Discard, func(string) string { return "" })
	if len(c.accounts) != 1 || c.accounts[0].name != rest.WellKnownAccount {
		t.Errorf("default accounts %+v", c.accounts)
	}
}

// TestHelpAndVersionExitZero: tableplay --help, serve --help and --version
// succeed and say what they are.
func TestHelpAndVersionExitZero(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "tableplay serve"},
		{[]string{"serve", "--help"}, "-trust-forwarded"},
		{[]string{"serve", "-h"}, "-oauth"},
		{[]string{"--version"}, "tableplay "},
	} {
		var out bytes.Buffer
		if err := run(c.args, &out, io.Discard); err != nil || !strings.Contains(out.String(), c.want) {
			t.Errorf("%q: %v %q", c.args, err, out.String())
		}
	}
	if v := version("v1.2.3"); !strings.HasPrefix(v, "tableplay v1.2.3") {
		t.Errorf("stamped version %q", v)
	}
}

// TestTrustForwardedJudgesTheProxyScheme: a spr=https SAS over the plain
// connection behind a TLS proxy is allowed only when --trust-forwarded
// takes X-Forwarded-Proto; without it the header is ignored.
func TestTrustForwardedJudgesTheProxyScheme(t *testing.T) {
	now := time.Now()
	s := rest.SAS{Version: "2019-02-02", Table: "tbl", Permissions: "r", Protocol: "https",
		Start: now.Add(-time.Minute).UTC().Format("2006-01-02T15:04:05Z"), Expiry: now.Add(time.Hour).UTC().Format("2006-01-02T15:04:05Z")}
	s.Signature = rest.WellKnown().SignSAS(s)
	for _, c := range []struct {
		trust  bool
		proto  string
		status int
	}{{false, "", 403}, {false, "https", 403}, {true, "", 403}, {true, "http", 403}, {true, "https", 404}} {
		srv := httptest.NewServer(newServer(serverConfig{clock: time.Now, trustForwarded: c.trust}))
		req, _ := http.NewRequest("GET", srv.URL+"/devstoreaccount1/tbl(PartitionKey='p',RowKey='r')?"+s.Encode(), nil)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		if c.proto != "" {
			req.Header.Set("X-Forwarded-Proto", c.proto)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// 404: allowed, and the table does not exist; 403: the protocol.
		if resp.StatusCode != c.status {
			t.Errorf("trust %v, X-Forwarded-Proto %q: %d", c.trust, c.proto, resp.StatusCode)
		}
		srv.Close()
	}
}

// TestAccessLogLine: each request's line names the client, the error code
// and the request id, on both transports' paths (API and files).
func TestAccessLogLine(t *testing.T) {
	var logs lockedBuffer
	srv := httptest.NewServer(newServer(serverConfig{clock: time.Now, log: log.New(&logs, "", 0), requestID: func() string { return "req-1" }}))
	defer srv.Close()
	for _, p := range []string{"/devstoreaccount1/Tables", "/devstoreaccount1/Tables('none')"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "rebind.example"
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^127\.0\.0\.1:\d+ GET /devstoreaccount1/Tables 403 AuthenticationFailed req-1 \S+s$`),
		regexp.MustCompile(`^127\.0\.0\.1:\d+ GET /devstoreaccount1/Tables\('none'\) 403 AuthenticationFailed req-1 \S+s$`),
		regexp.MustCompile(`^127\.0\.0\.1:\d+ GET / 403 AuthorizationFailure req-1 \S+s$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("log:\n%s", logs.String())
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q", i, lines[i])
		}
	}
}

// TestHostRuleNames: --host names and their subdomains (product-style),
// and names under .localhost, are served; look-alikes are not.
func TestHostRuleNames(t *testing.T) {
	r := newHostRule("0.0.0.0:10002", "tableplay", "Azurite.")
	for host, want := range map[string]bool{
		"tableplay:10002":                   true,
		"AZURITE:10002":                     true,
		"devstoreaccount1.tableplay:10002":  true,
		"devstoreaccount1.table.localhost":  true,
		"tableplay.evil.example":            false,
		"eviltableplay:10002":               false,
		"a.b.tableplay.example":             false,
		"rebind.example":                    false,
		"10.0.0.5":                          true,
		"devstoreaccount1.table.localhost.": true,
	} {
		if got := r.allows(host); got != want {
			t.Errorf("%s: %v", host, got)
		}
	}
	a := newAccounts(nil, []string{"devstoreaccount1", "second"}, []string{"tableplay"})
	for host, want := range map[string]string{
		"devstoreaccount1.table.localhost:10002": "devstoreaccount1",
		"second-secondary.table.localhost":       "second-secondary",
		"second.tableplay:10002":                 "second",
		"third.tableplay":                        "",
		"x.second.tableplay":                     "",
		"127.0.0.1:10002":                        "",
	} {
		if got := a.byHost(host); got != want {
			t.Errorf("account of %s: %q", host, got)
		}
	}
	if !a.byPath("/second/Tables") || !a.byPath("/devstoreaccount1-secondary") || a.byPath("/third/Tables") || a.byPath("/") {
		t.Error("byPath")
	}
}
