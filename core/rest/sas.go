package rest

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/mac"
	"github.com/tableplay/tableplay/core/sas"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/xmlbody"
)

// SAS is a shared access signature (core/sas), named here for the hosts
// that sign one with Credentials.
type SAS = sas.Token

// SignSAS computes the signature of a SAS with the account key.
func (c Credentials) SignSAS(s SAS) string {
	m := mac.New(c.Key)
	m.Write([]byte(s.StringToSign(c.Account)))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// grant is what a verified SAS allows: permission letters, the table (service
// SAS) and the key range.
type grant struct {
	account       bool
	perms         string
	services      string
	resourceTypes string
	table         string
	startPK       string
	startRK       string
	endPK         string
	endRK         string
}

// policyLookup finds a table's stored access policy by id.
type policyLookup func(table, id string) (perms string, start, expiry *edm.Ticks, found bool)

// verifySAS checks the signature, the time window, the protocol and the
// source address, resolving a stored access policy (si) first.
func (c Credentials) verifySAS(s SAS, now time.Time, secure bool, remote string, policies policyLookup) (*grant, *tableerr.Error) {
	sig, err := base64.StdEncoding.DecodeString(s.Signature)
	want, _ := base64.StdEncoding.DecodeString(c.SignSAS(s))
	if err == nil && !mac.Equal(sig, want) && len(c.SecondaryKey) > 0 {
		want, _ = base64.StdEncoding.DecodeString(Credentials{Account: c.Account, Key: c.SecondaryKey}.SignSAS(s))
	}
	if err != nil || !mac.Equal(sig, want) { // constant time: a timing must not reveal how much of a guess is right
		return nil, tableerr.New(tableerr.AuthenticationFailed)
	}
	perms, start, expiry := s.Permissions, s.Start, s.Expiry
	if !s.Account && s.Identifier != "" {
		pPerms, pStart, pExpiry, found := policies(s.Table, s.Identifier)
		if !found {
			return nil, tableerr.New(tableerr.AuthenticationFailed) // a revoked or unknown policy
		}
		// A field may be given by the policy or by the SAS, not by both.
		if pPerms != "" && perms != "" || pStart != nil && start != "" || pExpiry != nil && expiry != "" {
			return nil, tableerr.New(tableerr.AuthenticationFailed)
		}
		if pPerms != "" {
			perms = pPerms
		}
		if pStart != nil {
			start = pStart.String()
		}
		if pExpiry != nil {
			expiry = pExpiry.String()
		}
	}
	// The signature is valid until se, with no grace (the clock-skew
	// tolerance is for a request's x-ms-date); a start time keeps the
	// tolerance, so that a token made on a clock slightly ahead works.
	se, ok := xmlbody.PolicyTime(expiry)
	if !ok || !now.Before(se) {
		return nil, tableerr.New(tableerr.AuthenticationFailed)
	}
	if start != "" {
		st, ok := xmlbody.PolicyTime(start)
		if !ok || now.Before(st.Add(-maxClockSkew)) {
			return nil, tableerr.New(tableerr.AuthenticationFailed)
		}
	}
	if s.Protocol == "https" && !secure {
		return nil, tableerr.New(tableerr.AuthorizationProtocolMismatch)
	}
	if s.IP != "" && remote != "" && !sas.IPAllowed(s.IP, remote) {
		return nil, tableerr.New(tableerr.AuthorizationSourceIPMismatch)
	}
	if s.Account && !strings.Contains(s.Services, "t") {
		return nil, tableerr.New(tableerr.AuthorizationServiceMismatch)
	}
	return &grant{account: s.Account, perms: perms, services: s.Services, resourceTypes: s.ResourceTypes,
		table: s.Table, startPK: s.StartPK, startRK: s.StartRK, endPK: s.EndPK, endRK: s.EndRK}, nil
}
