package play

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/rest"
)

// Connection is what the page knows of a Table endpoint outside the engine
// (a room, `tableplay serve`, Azurite, a storage account): its URL and
// either the account key or a SAS. The page keeps it in memory only.
type Connection struct {
	// Endpoint is the account's table endpoint, such as
	// http://127.0.0.1:10002/devstoreaccount1 or
	// https://name.table.core.windows.net.
	Endpoint string `json:"endpoint"`
	// Account is the account name; empty reads it from Endpoint (the
	// host's first label for *.table.core.windows.net, else the path's
	// first segment).
	Account string `json:"account,omitempty"`
	// Key is the account key in base64; requests are signed with Shared
	// Key Lite.
	Key string `json:"key,omitempty"`
	// SAS is a shared access signature's query string; requests carry it
	// instead of a signature. Exactly one of Key, SAS and WellKnownKey is
	// given.
	SAS string `json:"sas,omitempty"`
	// WellKnownKey signs with the emulators' well-known key (`tableplay
	// serve`, Azurite), so the page need not hold it.
	WellKnownKey bool `json:"wellKnownKey,omitempty"`
}

// Remote is a connection the engine builds requests and code for: the
// requests are signed (or carry the SAS) but are sent by the page.
type Remote struct {
	// API builds the requests; it has no store and no handler.
	API *API
	// Endpoint is the endpoint without a trailing slash.
	Endpoint string `json:"endpoint"`
	// Account is the account name requests are signed for.
	Account string `json:"account"`
	// Auth is "key" or "sas".
	Auth string `json:"auth"`
	key  string
}

// maxCredential bounds the key and the SAS the page may hand over.
const maxCredential = 4096

// Connect checks a connection and returns the Remote that builds its
// requests, or why it cannot be used.
func Connect(c Connection, clock func() time.Time) (*Remote, error) {
	endpoint := strings.TrimRight(strings.TrimSpace(c.Endpoint), "/")
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("the endpoint must be an http:// or https:// URL, such as http://127.0.0.1:10002/devstoreaccount1")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, errors.New("the endpoint is the account's URL alone: give the SAS in its own field")
	}
	account := strings.TrimSpace(c.Account)
	if account == "" {
		account = accountOf(u)
	}
	if account == "" {
		return nil, errors.New("the account name cannot be read from the endpoint: give it")
	}
	key, sas := strings.TrimSpace(c.Key), strings.TrimPrefix(strings.TrimSpace(c.SAS), "?")
	if c.WellKnownKey && key == "" && sas == "" {
		key = rest.WellKnownKey
	}
	if len(key) > maxCredential || len(sas) > maxCredential {
		return nil, errors.New("the key or SAS is too long")
	}
	r := &Remote{Endpoint: endpoint, Account: account, key: key}
	creds := rest.Credentials{Account: account}
	switch {
	case key != "" && sas != "":
		return nil, errors.New("give the account key or a SAS, not both")
	case key != "":
		raw, err := base64.StdEncoding.DecodeString(key)
		if err != nil || len(raw) == 0 {
			return nil, errors.New("the account key is not base64 (it looks like Eby8vd…GMGw==)")
		}
		creds.Key, r.Auth = raw, "key"
	case sas != "":
		q, err := url.ParseQuery(sas)
		if err != nil || q.Get("sig") == "" || q.Get("sv") == "" {
			return nil, errors.New("the SAS is a query string with sv=… and sig=… (as the portal or az storage generates it)")
		}
		r.Auth = "sas"
	default:
		return nil, errors.New("give the account key or a SAS")
	}
	r.API = &API{Base: endpoint, Clock: clock, Creds: creds, SAS: sas}
	return r, nil
}

// accountOf reads the account name from an endpoint: name.table.… is
// name; otherwise (path style: an emulator, a room) the first path segment.
func accountOf(u *url.URL) string {
	host := u.Hostname()
	if name, rest, ok := strings.Cut(host, ".table."); ok && rest != "" {
		return name
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	return first
}

// Code generates the program for an operation against the remote endpoint,
// with its key or SAS, so a reader can paste it and run it.
func (r *Remote) Code(opJSON []byte, language string) []byte {
	return r.CodeIn(nil, opJSON, language)
}

// CodeIn is Code with the program's comments and notes in loc.
func (r *Remote) CodeIn(loc *locale.Locale, opJSON []byte, language string) []byte {
	opt := codegen.Options{Endpoint: r.Endpoint, Account: r.Account, Key: r.key}
	if r.Auth == "sas" {
		opt.SASOnly, opt.SAS = true, r.API.SAS
		opt.Key = ""
	}
	return r.API.In(loc).code(opJSON, language, opt)
}

// Answered reads an answer the page fetched for a request the remote built:
// the service's error code and message, and both sizes as HTTP/1.1 text (as
// Run reports them for the engine).
func Answered(requestJSON, replyJSON []byte) []byte {
	var req Request
	var reply rest.Reply
	if err := readJSON(requestJSON, &req); err != nil {
		return errorJSON("not a request: " + err.Error())
	}
	if err := readJSON(replyJSON, &reply); err != nil {
		return errorJSON("not an answer: " + err.Error())
	}
	ran := Ran{}
	ran.RequestBytes, ran.ResponseBytes = wireBytes(req, reply)
	if reply.Status >= 300 {
		ran.Code, ran.Message = ErrorOf([]byte(reply.Body))
	}
	return mustJSON(ran)
}

// withSAS adds the SAS to a built request's query, after what is there.
func withSAS(u *url.URL, sas string) {
	if u.RawQuery == "" {
		u.RawQuery = sas
	} else {
		u.RawQuery += "&" + sas
	}
}
