package rest

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Tokens says which bearer tokens (Microsoft Entra ID access tokens) a
// handler accepts, as the emulators' basic OAuth mode does: a token read over HTTPS
// whose audience, issuer and lifetime are right. Its signature is NOT
// checked, so anyone can make one; it is for tests that swap in a token
// credential, never for data that needs protecting (docs/server.md).
type Tokens struct {
	// Role is what a token whose roles claim names neither data role may
	// do: the Storage Table Data Contributor's data actions, or the
	// Reader's.
	Role TokenRole
}

// TokenRole is a built-in data role a bearer token acts with.
type TokenRole uint8

// The two data roles of the Table service.
const (
	// TableDataContributor reads, writes and deletes tables and entities.
	TableDataContributor TokenRole = iota + 1
	// TableDataReader lists tables and reads entities.
	TableDataReader
)

// Role names as the roles claim carries them (an app role assigned to the
// token's client) and as --oauth-role takes them.
const (
	ContributorRoleName = "Storage Table Data Contributor"
	ReaderRoleName      = "Storage Table Data Reader"
)

// tokenSkew is the clock skew a token's nbf and exp are given.
const tokenSkew = 5 * time.Minute

// maxToken bounds the token text decoded (an access token is 1-3 KB).
const maxToken = 16 << 10

// tokenAudiences are the audiences a token for any account may carry: the
// storage resource, with and without its slash, and its application id.
var tokenAudiences = []string{"https://storage.azure.com", "https://storage.azure.com/", "e406a681-f3d4-42a8-90b6-c2b029497af1"}

// tokenIssuers are the prefixes of the issuers Entra ID signs as, in the
// public and sovereign clouds (v1 sts and v2 login endpoints).
var tokenIssuers = []string{
	"https://sts.windows.net/", "https://login.microsoftonline.com/",
	"https://sts.chinacloudapi.cn/", "https://login.chinacloudapi.cn/",
	"https://sts.microsoftonline.us/", "https://login.microsoftonline.us/",
	"https://sts.windows-ppe.net/", "https://login.windows-ppe.net/",
}

// claims are the parts of an access token's payload that are judged.
type claims struct {
	Aud   json.RawMessage `json:"aud"` // a string or a list of them
	Iss   string          `json:"iss"`
	Exp   *float64        `json:"exp"`
	Nbf   *float64        `json:"nbf"`
	Roles []string        `json:"roles"`
}

// tokenGrant is what an accepted bearer token may do.
type tokenGrant struct {
	role TokenRole
}

// bearer checks a request's "Authorization: Bearer …" token. Only a
// secure connection carries one (the SDKs refuse to send a token over
// plain HTTP, and so does the service). A token that cannot be read or is
// for another audience, issuer or time is 401 InvalidAuthenticationInfo
// with the challenge the service sends.
func (x *exchange) bearer(token string) (*tokenGrant, *tableerr.Error) {
	t := x.h.creds.Tokens
	if t == nil {
		return nil, tableerr.WithMessage(tableerr.AuthenticationFailed, "Bearer tokens are not accepted: start the server with --oauth basic (and HTTPS).")
	}
	if !x.r.TLS {
		return nil, tableerr.WithMessage(tableerr.AuthenticationFailed, "A bearer token is accepted over HTTPS only.")
	}
	c, ok := readClaims(token)
	if !ok {
		return nil, x.challenge("The access token cannot be read.")
	}
	if !x.audienceOK(c.Aud) {
		return nil, x.challenge("Audience validation failed. Audience did not match.")
	}
	if !issuerOK(c.Iss) {
		return nil, x.challenge("Issuer validation failed.")
	}
	now := float64(x.now.Unix())
	skew := tokenSkew.Seconds()
	if c.Nbf != nil && *c.Nbf > now+skew {
		return nil, x.challenge("Lifetime validation failed. The token is not yet valid.")
	}
	if c.Exp == nil || *c.Exp+skew <= now {
		return nil, x.challenge("Lifetime validation failed. The token is expired.")
	}
	g := &tokenGrant{role: t.Role}
	for _, r := range c.Roles {
		switch r {
		case ReaderRoleName:
			g.role = TableDataReader
		case ContributorRoleName:
			g.role = TableDataContributor
		}
	}
	if g.role == 0 {
		g.role = TableDataContributor
	}
	return g, nil
}

// challenge is a refused token's error; the answer carries the service's
// WWW-Authenticate challenge (failAuth).
func (x *exchange) challenge(why string) *tableerr.Error {
	x.out.Set("WWW-Authenticate", "Bearer authorization_uri=https://login.microsoftonline.com/common/oauth2/authorize resource_id=https://storage.azure.com")
	return tableerr.WithMessage(tableerr.InvalidAuthenticationInfo, tableerr.InvalidAuthenticationInfo.Message()+" "+why)
}

// readClaims decodes a JWT's payload, unverified.
func readClaims(token string) (claims, bool) {
	var c claims
	parts := strings.Split(token, ".")
	if len(token) > maxToken || len(parts) != 3 {
		return c, false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil || json.Unmarshal(b, &c) != nil {
		return c, false
	}
	return c, true
}

// audienceOK reports whether one of the token's audiences is the storage
// resource or this account's endpoint: the emulator URL the request came
// to, or the account's service URL.
func (x *exchange) audienceOK(raw json.RawMessage) bool {
	var list []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		list = []string{one}
	} else if json.Unmarshal(raw, &list) != nil {
		return false
	}
	acct := x.h.creds.Account
	own := []string{x.base, "https://" + acct + ".table.core.windows.net"}
	for _, a := range list {
		a = strings.TrimSuffix(a, "/")
		for _, want := range append(own, tokenAudiences...) {
			if a == strings.TrimSuffix(want, "/") {
				return true
			}
		}
	}
	return false
}

// issuerOK reports whether iss is one of Entra ID's issuers.
func issuerOK(iss string) bool {
	for _, p := range tokenIssuers {
		if strings.HasPrefix(iss, p) && len(iss) > len(p) {
			return true
		}
	}
	return false
}

// allow decides what a token's role allows, as the built-in roles' data
// actions do: the Reader reads tables and entities; the Contributor also
// creates, changes and deletes them. Neither sets service properties or
// table ACLs, which take the account key. A batch is judged part by part.
func (g *tokenGrant) allow(o op.Operation) *tableerr.Error {
	p := o.Kind.Permission()
	switch {
	case p.ByParts:
		return nil
	case p.Policy || p.ResourceType == 0 || p.ResourceType == 's':
		return tableerr.New(tableerr.AuthorizationPermissionMismatch)
	case g.role == TableDataReader && o.Kind.Changes():
		return tableerr.New(tableerr.AuthorizationPermissionMismatch)
	}
	return nil
}
