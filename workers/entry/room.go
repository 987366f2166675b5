package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/mac"
	"github.com/tableplay/tableplay/core/rest"
)

// A room's account name is "room" and twelve base32 letters: a valid
// storage account name (3-24 lowercase letters and digits), and a shape no
// path of the static site has, so routing needs no list of rooms. The first
// eight letters are random (40 bits); the last four are a tag, the first 20
// bits of an HMAC of them under the deployment secret: the entry tells a
// name it gave from a made-up one without asking the rooms' storage, so a
// request to a made-up name never wakes an object (a Durable Object that is
// reached keeps a database, even one nothing was written to). A guess
// passes one time in a million; the name is no credential either way (the
// key or a SAS is).
const (
	roomPrefix = "room"
	nameRandom = 8 // letters
	nameTag    = 4 // letters
)

// roomOf returns the room a path's first segment names by its shape: its
// account, or its secondary endpoint ("-secondary" appended).
func roomOf(segment string) (account string, ok bool) {
	account = strings.TrimSuffix(segment, "-secondary")
	if len(account) != len(roomPrefix)+nameRandom+nameTag || !strings.HasPrefix(account, roomPrefix) {
		return "", false
	}
	for _, c := range account[len(roomPrefix):] {
		if !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return "", false
		}
	}
	return account, true
}

// newRoomName returns a fresh account name from rnd (crypto/rand in the
// Worker), tagged under secret.
func newRoomName(rnd func([]byte) (int, error), secret []byte) (string, error) {
	var b [5]byte
	if _, err := rnd(b[:]); err != nil {
		return "", err
	}
	random := strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
	return roomPrefix + random + nameTagOf(secret, random), nil
}

// issued reports whether a name of a room's shape carries its tag under
// secret: a name this deployment gave.
func issued(secret []byte, account string) bool {
	random := account[len(roomPrefix) : len(roomPrefix)+nameRandom]
	return subtle.ConstantTimeCompare([]byte(account[len(roomPrefix)+nameRandom:]), []byte(nameTagOf(secret, random))) == 1
}

// nameTagOf is the tag of a name's random letters.
func nameTagOf(secret []byte, random string) string {
	m := mac.New(secret)
	m.Write([]byte("tableplay room name\n" + random))
	return strings.ToLower(base32.StdEncoding.EncodeToString(m.Sum(nil)[:5]))[:nameTag]
}

// cryptoRand is crypto/rand's Read, the source of room names.
func cryptoRand(b []byte) (int, error) { return rand.Read(b) }

// roomKey derives a room's account key from the deployment secret: the
// HMAC-SHA256 of the account name under the secret. The Worker stores no
// keys; any isolate recomputes the same one, and a key of one room says
// nothing about another's.
func roomKey(secret []byte, account string) []byte {
	m := mac.New(secret)
	m.Write([]byte("tableplay room key\n" + account))
	return m.Sum(nil)
}

// Permissions of the two room links (account SAS letters): an audience
// reads and lists; a class also writes, deletes, adds, creates and updates.
const (
	readPermissions  = "rl"
	writePermissions = "rwdlacu"
)

// roomSAS mints an account SAS for a room's tables with core/rest's own
// signing, valid from a minute before now (clocks differ) to expiry, over
// either protocol (no spr: its default, and 15 characters fewer in a link).
func roomSAS(creds rest.Credentials, permissions string, now, expiry time.Time) string {
	s := rest.SAS{
		Version: "2019-02-02", Services: "t", ResourceTypes: "sco", Permissions: permissions,
		Start: now.Add(-time.Minute).UTC().Format(sasTime), Expiry: expiry.UTC().Format(sasTime),
		Account: true,
	}
	s.Signature = creds.SignSAS(s)
	return s.Encode()
}

// sasTime is the form of st and se (ISO 8601, UTC, whole seconds).
const sasTime = "2006-01-02T15:04:05Z"

// room is the answer of POST /rooms.
type room struct {
	Account          string `json:"account"`
	Key              string `json:"key"`
	Endpoint         string `json:"endpoint"`
	ConnectionString string `json:"connectionString"`
	ReadLink         string `json:"readLink"`
	WriteLink        string `json:"writeLink"`
	Expires          string `json:"expires"`
	// IdleSeconds and Limits are what the room was given (the request's,
	// bounded by the deployment's; 0 is none), so a page can say them.
	IdleSeconds int64  `json:"idleSeconds"`
	Limits      limits `json:"limits"`
}

// newRoom describes a room created with o: base is the Worker's own origin
// ("https://host"), the links open the page there connected to the room.
func newRoom(base, account string, key []byte, o options, now time.Time) room {
	expires := now.Add(time.Duration(o.IdleSeconds) * time.Second)
	creds := rest.Credentials{Account: account, Key: key}
	endpoint := base + "/" + account
	scheme, _, _ := strings.Cut(base, "://")
	k := base64.StdEncoding.EncodeToString(key)
	return room{
		Account:  account,
		Key:      k,
		Endpoint: endpoint,
		ConnectionString: "DefaultEndpointsProtocol=" + scheme + ";AccountName=" + account + ";AccountKey=" + k +
			";TableEndpoint=" + endpoint + ";",
		ReadLink:    roomLink(base, endpoint, roomSAS(creds, readPermissions, now, expires)),
		WriteLink:   roomLink(base, endpoint, roomSAS(creds, writePermissions, now, expires)),
		Expires:     expires.UTC().Format(time.RFC3339),
		IdleSeconds: o.IdleSeconds,
		Limits:      o.Limits,
	}
}

// roomLink is the page at base, told by its fragment which endpoint to
// connect to and with which SAS. A fragment never reaches a server, so the
// SAS stays out of request logs. The link is kept short, for a projector
// and its QR code: the endpoint is a path when it is on base (the page
// resolves it against the link), the SAS's values are escaped only where a
// query needs it, and the fragment escapes only what its own parameters
// would misread.
func roomLink(base, endpoint, sas string) string {
	if rest, ok := strings.CutPrefix(endpoint, base+"/"); ok {
		endpoint = "/" + rest
	}
	return base + "/#connect=" + fragmentEscape(endpoint) + "&sas=" + fragmentEscape(shortQuery(sas))
}

// shortQuery writes a query string again with each key and value escaped
// only where a query reader would misread it ('%', '&', '+', '#', '=',
// spaces and what is not printable ASCII): "se=2026-12-09T00:12:06Z", not
// "se=2026-12-09T00%3A12%3A06Z". It reads as the same values. ('=' inside
// a value is escaped too: the JavaScript SDK cuts a SAS value at it.)
func shortQuery(q string) string {
	v, err := url.ParseQuery(q)
	if err != nil {
		return q
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, val := range v[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(queryEscape(k, "%&+#= "))
			b.WriteByte('=')
			b.WriteString(queryEscape(val, "%&+#= "))
		}
	}
	return b.String()
}

// fragmentEscape escapes what a fragment's parameters (read as a query by
// the page's URLSearchParams) would misread: '%', '&', '+', '#' and spaces.
func fragmentEscape(s string) string { return queryEscape(s, "%&+# ") }

// queryEscape percent-escapes the bytes of special and every byte that is
// not printable ASCII.
func queryEscape(s, special string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(special, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
