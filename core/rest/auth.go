package rest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/tableerr"
)

// Credentials is the account a handler serves and how it checks requests.
type Credentials struct {
	Account string
	Key     []byte // the account key, decoded from base64
	// AllowUnsigned lets requests without an Authorization header in (the
	// native server's --allow-anonymous, and the browser, where a page holds
	// no secret). A signature that is present is always verified.
	AllowUnsigned bool
}

// The emulator's well-known account and key (devstoreaccount1), which
// every SDK's development-storage connection string uses.
const (
	WellKnownAccount = "devstoreaccount1"
	WellKnownKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// WellKnown returns the emulator account's credentials.
func WellKnown() Credentials {
	key, _ := base64.StdEncoding.DecodeString(WellKnownKey)
	return Credentials{Account: WellKnownAccount, Key: key}
}

// maxClockSkew is how far a request's date may be from the server's clock.
const maxClockSkew = 15 * time.Minute

// Authorization is a parsed Authorization header.
type Authorization struct {
	Scheme    string // "SharedKey" or "SharedKeyLite"
	Account   string
	Signature []byte
}

// ParseAuthorization reads "SharedKey account:base64sig" or
// "SharedKeyLite account:base64sig".
func ParseAuthorization(h string) (Authorization, bool) {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || scheme != "SharedKey" && scheme != "SharedKeyLite" {
		return Authorization{}, false
	}
	account, sig, ok := strings.Cut(strings.TrimSpace(rest), ":")
	if !ok || account == "" || sig == "" {
		return Authorization{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(raw) != sha256.Size {
		return Authorization{}, false
	}
	return Authorization{Scheme: scheme, Account: account, Signature: raw}, true
}

// sharedKey checks a request's Shared Key or Shared Key Lite signature
// (the Table service's flavour of Shared Key). The string to sign uses x-ms-date (or Date) and the canonical
// resource "/account" + the path as sent — for path-style URLs the account
// appears twice — plus "?comp=…" when present.
func (c Credentials) sharedKey(r *http.Request, now time.Time) *tableerr.Error {
	a, ok := ParseAuthorization(r.Header.Get("Authorization"))
	if !ok || a.Account != c.Account {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	date := r.Header.Get("x-ms-date")
	if date == "" {
		date = r.Header.Get("Date")
	}
	if date == "" {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	if t, err := http.ParseTime(date); err != nil || t.Sub(now) > maxClockSkew || now.Sub(t) > maxClockSkew {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	resource := "/" + c.Account + r.URL.EscapedPath()
	if comp, ok := r.URL.Query()["comp"]; ok {
		resource += "?comp=" + comp[0]
	}
	var sts string
	if a.Scheme == "SharedKeyLite" {
		sts = date + "\n" + resource
	} else {
		sts = r.Method + "\n" + r.Header.Get("Content-MD5") + "\n" + r.Header.Get("Content-Type") + "\n" + date + "\n" + resource
	}
	m := hmac.New(sha256.New, c.Key)
	m.Write([]byte(sts))
	if !hmac.Equal(m.Sum(nil), a.Signature) {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	return nil
}

// Sign returns the SharedKeyLite Authorization value for a request, as the Go
// SDK computes it; tests and the playground's request builder use it.
func (c Credentials) Sign(date string, u *url.URL) string {
	resource := "/" + c.Account + u.EscapedPath()
	if comp, ok := u.Query()["comp"]; ok {
		resource += "?comp=" + comp[0]
	}
	m := hmac.New(sha256.New, c.Key)
	m.Write([]byte(date + "\n" + resource))
	return "SharedKeyLite " + c.Account + ":" + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
