package sas

import "testing"

func TestSASStringToSignByVersion(t *testing.T) {
	s := Token{Version: "2019-02-02", Permissions: "r", Start: "st", Expiry: "se", Table: "MyTable", Identifier: "si", IP: "ip", Protocol: "https",
		StartPK: "a", StartRK: "b", EndPK: "c", EndRK: "d"}
	if got := s.serviceStringToSign("acct"); got != "r\nst\nse\n/table/acct/mytable\nsi\nip\nhttps\n2019-02-02\na\nb\nc\nd" {
		t.Errorf("2019-02-02: %q", got)
	}
	s.Version = "2015-02-21"
	if got := s.serviceStringToSign("acct"); got != "r\nst\nse\n/table/acct/mytable\nsi\n2015-02-21\na\nb\nc\nd" {
		t.Errorf("2015-02-21: %q", got)
	}
	s.Version = "2013-08-15"
	if got := s.serviceStringToSign("acct"); got != "r\nst\nse\n/acct/mytable\nsi\n2013-08-15\na\nb\nc\nd" {
		t.Errorf("2013-08-15: %q", got)
	}
	a := Token{Version: "2019-02-02", Account: true, Permissions: "rl", Services: "t", ResourceTypes: "sco", Start: "st", Expiry: "se", Protocol: "https"}
	if got := a.accountStringToSign("acct"); got != "acct\nrl\nt\nsco\nst\nse\n\nhttps\n2019-02-02\n" {
		t.Errorf("account: %q", got)
	}
	a.Version = "2021-06-08"
	if got := a.accountStringToSign("acct"); got != "acct\nrl\nt\nsco\nst\nse\n\nhttps\n2021-06-08\n\n" {
		t.Errorf("account 2021: %q", got)
	}
}

func TestIPAllowed(t *testing.T) {
	for _, tc := range []struct {
		sip, remote string
		want        bool
	}{
		{"127.0.0.1", "127.0.0.1:5000", true},
		{"127.0.0.2", "127.0.0.1:5000", false},
		{"10.0.0.1-10.0.0.9", "10.0.0.5:1", true},
		{"10.0.0.1-10.0.0.9", "10.0.1.5:1", false},
		{"junk", "10.0.0.5:1", false},
	} {
		if got := IPAllowed(tc.sip, tc.remote); got != tc.want {
			t.Errorf("%s %s: %v", tc.sip, tc.remote, got)
		}
	}
}
