// Package sas is a shared access signature as text: its query parameters
// read and written, the string its signature signs by version, and the
// address ranges of sip. Verifying one against an account's key, and what
// it then grants, is core/rest's.
package sas

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/tableplay/tableplay/core/tableerr"
)

// Token is a parsed shared access signature: a service SAS for one
// table (tn, optional key range, optional stored policy si) or an account SAS
// (ss, srt).
type Token struct {
	// Version is sv, the version whose string to sign the signature uses.
	Version string
	// Permissions is sp, the permission letters; empty when a stored policy
	// gives them.
	Permissions string
	// Start is st, when the signature becomes valid (ISO 8601 UTC); empty
	// when valid at once or when a stored policy gives it.
	Start string
	// Expiry is se, when the signature stops being valid (ISO 8601 UTC);
	// empty only when a stored policy gives it.
	Expiry string
	// IP is sip, the one address or "from-to" range requests may come from;
	// empty for any.
	IP string
	// Protocol is spr: "https" refuses plain HTTP; "https,http" or empty
	// allows either.
	Protocol string
	// Signature is sig, the base64 HMAC-SHA256 of the string to sign.
	Signature string
	// Table is tn, the one table a service SAS grants; empty for an account
	// SAS.
	Table string
	// StartPK is spk, the PartitionKey a service SAS's key range starts at;
	// empty for no lower bound.
	StartPK string
	// StartRK is srk, the RowKey the key range starts at, with StartPK.
	StartRK string
	// EndPK is epk, the PartitionKey the key range ends at; empty for no
	// upper bound.
	EndPK string
	// EndRK is erk, the RowKey the key range ends at, with EndPK.
	EndRK string
	// Identifier is si, the id of the table's stored access policy that
	// supplies sp, st or se; empty for none.
	Identifier string
	// Services is ss, an account SAS's service letters ("t" for tables).
	Services string
	// ResourceTypes is srt, an account SAS's resource type letters.
	ResourceTypes string
	// EncryptionScope is ses, signed from version 2020-12-06; usually empty.
	EncryptionScope string
	// Account says this is an account SAS (ss or srt given) rather than a
	// service SAS.
	Account bool
}

// Parse reads the SAS parameters of a query; ok is false when the query
// carries no signature at all. A query with sig but not the parameters a
// SAS needs is an error.
func Parse(q url.Values) (s Token, ok bool, err *tableerr.Error) {
	if _, has := q["sig"]; !has {
		return Token{}, false, nil
	}
	for _, name := range sasParameters() {
		if len(q[name]) > 1 {
			return Token{}, true, tableerr.New(tableerr.AuthenticationFailed) // which one would count is ambiguous
		}
	}
	get := q.Get
	s = Token{
		Version: get("sv"), Permissions: get("sp"), Start: get("st"), Expiry: get("se"), IP: get("sip"), Protocol: get("spr"),
		Signature: get("sig"), Table: get("tn"), StartPK: get("spk"), StartRK: get("srk"), EndPK: get("epk"), EndRK: get("erk"),
		Identifier: get("si"), Services: get("ss"), ResourceTypes: get("srt"), EncryptionScope: get("ses"),
	}
	s.Account = s.Services != "" || s.ResourceTypes != ""
	if s.Version == "" || s.Signature == "" || (!s.Account && s.Table == "") || (s.Account && (s.Services == "" || s.ResourceTypes == "")) {
		return s, true, tableerr.New(tableerr.AuthenticationFailed)
	}
	return s, true, nil
}

// sasParameters are the query parameters a shared access signature uses.
func sasParameters() []string {
	return []string{"sv", "sp", "st", "se", "sip", "spr", "sig", "tn", "spk", "srk", "epk", "erk", "si", "ss", "srt", "ses"}
}

// serviceStringToSign is the string a table service SAS signs, by version:
// from 2015-04-05 twelve lines with sip and spr; before, ten; before
// 2015-02-21 the canonical resource has no "/table" prefix.
func (s Token) serviceStringToSign(account string) string {
	table := strings.ToLower(s.Table)
	resource := "/table/" + account + "/" + table
	if s.Version < "2015-02-21" {
		resource = "/" + account + "/" + table
	}
	lines := []string{s.Permissions, s.Start, s.Expiry, resource, s.Identifier}
	if s.Version >= "2015-04-05" {
		lines = append(lines, s.IP, s.Protocol)
	}
	lines = append(lines, s.Version, s.StartPK, s.StartRK, s.EndPK, s.EndRK)
	return strings.Join(lines, "\n")
}

// accountStringToSign is the string an account SAS signs (a trailing newline
// included); from 2020-12-06 it has an encryption-scope line.
func (s Token) accountStringToSign(account string) string {
	lines := []string{account, s.Permissions, s.Services, s.ResourceTypes, s.Start, s.Expiry, s.IP, s.Protocol, s.Version}
	if s.Version >= "2020-12-06" {
		lines = append(lines, s.EncryptionScope)
	}
	return strings.Join(lines, "\n") + "\n"
}

// StringToSign is the string the token's signature signs for account: a
// service SAS's or an account SAS's, by version.
func (s Token) StringToSign(account string) string {
	if s.Account {
		return s.accountStringToSign(account)
	}
	return s.serviceStringToSign(account)
}

// Encode returns the SAS as query parameters, signature included.
func (s Token) Encode() string {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("sv", s.Version)
	set("sp", s.Permissions)
	set("st", s.Start)
	set("se", s.Expiry)
	set("sip", s.IP)
	set("spr", s.Protocol)
	set("tn", s.Table)
	set("spk", s.StartPK)
	set("srk", s.StartRK)
	set("epk", s.EndPK)
	set("erk", s.EndRK)
	set("si", s.Identifier)
	set("ss", s.Services)
	set("srt", s.ResourceTypes)
	set("ses", s.EncryptionScope)
	set("sig", s.Signature)
	return v.Encode()
}

// IPAllowed checks a remote address against sip: one address or a range
// "from-to". Addresses compare in their 16-byte form, an IPv4 address as
// IPv4-mapped.
func IPAllowed(sip, remote string) bool {
	ip, ok := parseIP(hostOf(remote))
	from, to, isRange := strings.Cut(sip, "-")
	lo, okLo := parseIP(from)
	hi, okHi := lo, okLo
	if isRange {
		hi, okHi = parseIP(to)
	}
	if !ok || !okLo || !okHi {
		return false
	}
	return string(ip[:]) >= string(lo[:]) && string(ip[:]) <= string(hi[:])
}

// hostOf drops the port of host:port or [host]:port; anything else is
// returned as it is.
func hostOf(remote string) string {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().String()
	}
	if strings.HasPrefix(remote, "[") {
		if end := strings.IndexByte(remote, ']'); end > 0 {
			return remote[1:end]
		}
	}
	if i := strings.LastIndexByte(remote, ':'); i >= 0 && strings.IndexByte(remote, ':') == i {
		return remote[:i]
	}
	return remote
}

// parseIP reads an IPv4 or IPv6 address without a zone.
func parseIP(s string) ([16]byte, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return [16]byte{}, false
	}
	return a.As16(), true
}
