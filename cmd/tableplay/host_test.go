package main

import (
	"strings"
	"testing"
)

func TestServeRefusesOtherHostNames(t *testing.T) {
	base := serve(t, "--allow-anonymous", "--web", t.TempDir())
	port := base[strings.LastIndex(base, ":")+1:]
	api := base + "/devstoreaccount1/Tables"
	for host, want := range map[string]int{
		"127.0.0.1:" + port:      200,
		"localhost:" + port:      200,
		"LOCALHOST:" + port:      200,
		"[::1]:" + port:          200,
		"127.0.0.1":              200,
		"rebind.example:" + port: 403,
		"rebind.example":         403,
		"127.0.0.1.nip.io":       403,
		"10.0.0.5:" + port:       403,
		"localhost.evil.example": 403,
	} {
		resp, body := fetch(t, api, "Host", host, "Accept", "application/json;odata=nometadata")
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d %q", host, resp.StatusCode, body)
		}
		// A refusal is the service's error body, which SDKs read; it
		// holds no list of tables.
		if want == 403 && (strings.Contains(body, `"value":[`) || !strings.HasPrefix(body, `{"odata.error":{"code":"AuthorizationFailure"`) ||
			resp.Header.Get("X-Ms-Error-Code") != "AuthorizationFailure") {
			t.Errorf("Host %s: answered %q", host, body)
		}
	}
}

func TestHostRuleFollowsTheBindAddress(t *testing.T) {
	for _, c := range []struct {
		addr, host string
		want       bool
	}{
		{"127.0.0.1:10002", "localhost:10002", true},
		{"127.0.0.1:10002", "localhost.:10002", true},
		{"127.0.0.1:10002", "192.168.1.9:10002", false},
		{"192.168.1.9:10002", "192.168.1.9:10002", true},
		{"192.168.1.9:10002", "192.168.1.10:10002", false},
		{"devbox.lan:10002", "DEVBOX.lan:10002", true},
		{"devbox.lan:10002", "other.lan:10002", false},
		{"[::1]:10002", "[::1]:10002", true},
		// Every interface: any address literal (rebinding needs a name), no names.
		{"0.0.0.0:10002", "192.168.1.9:10002", true},
		{"0.0.0.0:10002", "[fe80::1]:10002", true},
		{"0.0.0.0:10002", "rebind.example:10002", false},
		{":10002", "10.1.2.3", true},
		{":10002", "", false},
	} {
		if got := newHostRule(c.addr).allows(c.host); got != c.want {
			t.Errorf("bound to %s, Host %q: %v", c.addr, c.host, got)
		}
	}
}
