package rest

import (
	"bytes"
	"encoding/base64"
	"hash"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tableplay/tableplay/core/mac"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// Credentials is the account a handler serves and how it checks requests.
type Credentials struct {
	// Account is the storage account's name, such as "devstoreaccount1": the
	// name a signature must carry and the one every string to sign holds.
	Account string
	Key     []byte // the account key, decoded from base64
	// SecondaryKey, when set, is the account's second key (key2): a
	// signature made with either is accepted.
	SecondaryKey []byte
	// Tokens, when set, lets bearer tokens in (token.go); nil refuses them.
	Tokens *Tokens
	// AllowUnsigned lets requests without an Authorization header in (the
	// native server's --allow-anonymous, and the browser, where a page holds
	// no secret). A signature that is present is always verified.
	AllowUnsigned bool
	// macs holds HMACs already keyed with Key (keying costs two SHA-256
	// blocks and several allocations per request); nil keys one afresh.
	macs *macPool
	// TrustUnsigned treats unsigned requests as signed ones. Without it,
	// an unsigned request may not change service properties or table
	// ACLs, nor write in a shape a page on another site could send
	// without a CORS preflight. The in-page engine sets it: its requests
	// come from its own page and never cross sites.
	TrustUnsigned bool
}

// macPool is a pool of HMAC-SHA256 states keyed with one key, each with a
// buffer for the string to sign.
type macPool struct {
	key  []byte
	pool sync.Pool
}

type macState struct {
	h   hash.Hash
	buf []byte
	sum [mac.Size]byte
}

// newMACPool keys its HMACs with a copy of key.
func newMACPool(key []byte) *macPool {
	p := &macPool{key: append([]byte(nil), key...)}
	p.pool.New = func() any { return &macState{h: mac.New(p.key), buf: make([]byte, 0, 256)} }
	return p
}

// sum returns the HMAC-SHA256, under the account key, of the message build
// appends to the buffer it is given. A pool made for another key (the Key
// field changed after WellKnown) is not used. The digest is written into
// the pooled state, so the result costs no allocation.
func (c Credentials) sum(build func([]byte) []byte) (out [mac.Size]byte) {
	if c.macs == nil || !bytes.Equal(c.macs.key, c.Key) {
		m := mac.New(c.Key)
		m.Write(build(nil))
		copy(out[:], m.Sum(nil))
		return out
	}
	st := c.macs.pool.Get().(*macState)
	st.buf = build(st.buf[:0])
	st.h.Reset()
	st.h.Write(st.buf)
	out = [mac.Size]byte(st.h.Sum(st.sum[:0]))
	if cap(st.buf) > 4096 {
		st.buf = make([]byte, 0, 256) // a huge path is not kept
	}
	c.macs.pool.Put(st)
	return out
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
	return Credentials{Account: WellKnownAccount, Key: key, macs: newMACPool(key)}
}

// NewCredentials returns an account's credentials with its key and, when
// not nil, its second key.
func NewCredentials(account string, key, secondary []byte) Credentials {
	return Credentials{Account: account, Key: key, SecondaryKey: secondary, macs: newMACPool(key)}
}

// maxClockSkew is how far a request's date may be from the server's clock.
const maxClockSkew = 15 * time.Minute

// Authorization is a parsed Authorization header.
type Authorization struct {
	Scheme string // "SharedKey" or "SharedKeyLite"
	// Account is the account name before the colon.
	Account string
	// Signature is the HMAC-SHA256 after the colon, decoded from base64
	// (32 bytes).
	Signature []byte
}

// ParseAuthorization reads "SharedKey account:base64sig" or
// "SharedKeyLite account:base64sig".
func ParseAuthorization(h string) (Authorization, bool) {
	a, sig, ok := parseAuthorization(h)
	if !ok {
		return Authorization{}, false
	}
	a.Signature = sig[:]
	return a, true
}

// parseAuthorization is ParseAuthorization with the signature in an array,
// which the request path keeps on the stack.
func parseAuthorization(h string) (a Authorization, sig [mac.Size]byte, ok bool) {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || scheme != "SharedKey" && scheme != "SharedKeyLite" {
		return a, sig, false
	}
	account, text, ok := strings.Cut(strings.TrimSpace(rest), ":")
	// A 32-byte signature is 44 characters of base64.
	if !ok || account == "" || len(text) != base64.StdEncoding.EncodedLen(mac.Size) {
		return a, sig, false
	}
	var src [44]byte
	var dst [33]byte
	copy(src[:], text)
	if n, err := base64.StdEncoding.Decode(dst[:], src[:]); err != nil || n != mac.Size {
		return a, sig, false
	}
	copy(sig[:], dst[:])
	return Authorization{Scheme: scheme, Account: account}, sig, true
}

// sharedKey checks a request's Shared Key or Shared Key Lite signature
// (the Table service's flavour of Shared Key). The string to sign uses x-ms-date (or Date) and the canonical
// resource "/account" + path — the path as sent, where for path-style URLs
// the account appears twice — plus "?comp=…" when present. q is the
// request's query as the handler parsed it: the comp signed is the comp
// routed.
func (c Credentials) sharedKey(r *Request, path string, q url.Values, now time.Time) *tableerr.Error {
	a, want, ok := parseAuthorization(r.Header.Get("Authorization"))
	if !ok || a.Account != c.Account {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	date := r.Header.Get("X-Ms-Date")
	if date == "" {
		date = r.Header.Get("Date")
	}
	if date == "" {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	if t, err := wire.ParseHTTPTime(date); err != nil || t.Sub(now) > maxClockSkew || now.Sub(t) > maxClockSkew {
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	// The string to sign, built in the pooled state's buffer.
	sum := c.sum(func(sts []byte) []byte {
		if a.Scheme != "SharedKeyLite" {
			sts = append(sts, r.Method...)
			sts = append(sts, '\n')
			sts = append(sts, r.Header.Get("Content-Md5")...)
			sts = append(sts, '\n')
			sts = append(sts, r.Header.Get("Content-Type")...)
			sts = append(sts, '\n')
		}
		sts = append(sts, date...)
		sts = append(sts, '\n')
		return c.appendResource(sts, path, q)
	})
	if !mac.Equal(sum[:], want[:]) {
		if len(c.SecondaryKey) > 0 {
			return Credentials{Account: c.Account, Key: c.SecondaryKey}.sharedKey(r, path, q, now)
		}
		return tableerr.New(tableerr.AuthenticationFailed)
	}
	return nil
}

// appendResource appends the canonical resource: "/account", the path as
// sent and "?comp=…" when the query has comp (a query naming comp twice is
// refused before any signature is checked).
func (c Credentials) appendResource(b []byte, path string, q url.Values) []byte {
	b = append(b, '/')
	b = append(b, c.Account...)
	b = append(b, path...)
	if comp, ok := q["comp"]; ok {
		b = append(b, "?comp="...)
		b = append(b, comp[0]...)
	}
	return b
}

// Sign returns the SharedKeyLite Authorization value for a request, as the Go
// SDK computes it; tests and the playground's request builder use it. The
// query is read as the handler reads it.
func (c Credentials) Sign(date string, u *url.URL) string {
	q, _ := wire.ParseQuery(u.RawQuery)
	sum := c.sum(func(sts []byte) []byte {
		sts = append(sts, date...)
		sts = append(sts, '\n')
		return c.appendResource(sts, u.EscapedPath(), q)
	})
	return "SharedKeyLite " + c.Account + ":" + base64.StdEncoding.EncodeToString(sum[:])
}
