package main

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/rest"
)

// listFlag is a flag that may be given many times (--host, --account).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// splitHosts reads TABLEPLAY_HOSTS: names separated by commas or blanks.
func splitHosts(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// checkHostName refuses what cannot be a host name in a Host header.
func checkHostName(h string) error {
	if h == "" || len(h) > 253 || strings.ContainsAny(h, "/:@[]*? ") {
		return fmt.Errorf("--host %q: give a host name such as tableplay or devbox.lan (no port, no scheme, no wildcard)", h)
	}
	return nil
}

// accountSpec is one --account (or AZURITE_ACCOUNTS entry): a name and
// one or two keys.
type accountSpec struct {
	name       string
	key, key2  []byte
	keyEncoded string
}

// parseAccount reads name:key[:key2], each key in base64, as Azurite reads
// each entry of AZURITE_ACCOUNTS. A storage account name is 3 to 24
// lower-case letters and digits.
func parseAccount(s string) (accountSpec, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	bad := func(why string) (accountSpec, error) {
		return accountSpec{}, fmt.Errorf("--account %q: %s (want name:key or name:key1:key2, keys in base64)", s, why)
	}
	if len(parts) < 2 || len(parts) > 3 {
		return bad("not name:key")
	}
	name := parts[0]
	if len(name) < 3 || len(name) > 24 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return bad("an account name is 3 to 24 lower-case letters and digits")
	}
	a := accountSpec{name: name, keyEncoded: parts[1]}
	for i, k := range parts[1:] {
		b, err := base64.StdEncoding.DecodeString(k)
		if err != nil || len(b) == 0 {
			return bad(fmt.Sprintf("key %d is not base64", i+1))
		}
		if i == 0 {
			a.key = b
		} else {
			a.key2 = b
		}
	}
	return a, nil
}

// parseAccounts reads the accounts to serve: the --account flags, else
// AZURITE_ACCOUNTS (entries separated by ';'), else the well-known
// devstoreaccount1. As in Azurite, naming accounts replaces the well-known
// one unless it is named too.
func parseAccounts(flags []string, env string) ([]accountSpec, error) {
	list := flags
	if len(list) == 0 {
		for _, e := range strings.Split(env, ";") {
			if strings.TrimSpace(e) != "" {
				list = append(list, e)
			}
		}
	}
	if len(list) == 0 {
		k := rest.WellKnown()
		return []accountSpec{{name: rest.WellKnownAccount, key: k.Key, keyEncoded: rest.WellKnownKey}}, nil
	}
	seen := map[string]bool{}
	var out []accountSpec
	for _, s := range list {
		a, err := parseAccount(s)
		if err != nil {
			return nil, err
		}
		if seen[a.name] {
			return nil, fmt.Errorf("--account %s: given twice", a.name)
		}
		seen[a.name] = true
		out = append(out, a)
	}
	return out, nil
}

// credentials are the account's, with its keys.
func (a accountSpec) credentials() rest.Credentials {
	return rest.NewCredentials(a.name, a.key, a.key2)
}
