package rest

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/tableerr"
)

// resourceKind is what a path addresses.
type resourceKind uint8

const (
	resService  resourceKind = iota + 1 // the account root: ?restype=service
	resTables                           // Tables, Tables()
	resTable                            // Tables('name')
	resBatch                            // $batch
	resEntities                         // t, t()
	resEntity                           // t(PartitionKey='a',RowKey='b')
)

// resource is a parsed resource segment.
type resource struct {
	kind   resourceKind
	table  string
	pk, rk string
}

// parseResource reads the resource segment after the account, still
// percent-encoded as it came on the wire (so an encoded '/' inside a key
// cannot split it).
func parseResource(escaped string) (resource, *tableerr.Error) {
	if escaped == "" {
		return resource{kind: resService}, nil
	}
	seg, err := url.PathUnescape(escaped)
	if err != nil {
		return resource{}, tableerr.New(tableerr.InvalidInput)
	}
	switch seg {
	case "Tables", "Tables()":
		return resource{kind: resTables}, nil
	case "$batch":
		return resource{kind: resBatch}, nil
	}
	open := strings.IndexByte(seg, '(')
	if open < 0 {
		if !isTableSegment(seg) {
			return resource{}, tableerr.New(tableerr.InvalidInput)
		}
		return resource{kind: resEntities, table: seg}, nil
	}
	name, args := seg[:open], seg[open:]
	if !strings.HasSuffix(args, ")") || !isTableSegment(name) {
		return resource{}, tableerr.New(tableerr.InvalidInput)
	}
	inner := args[1 : len(args)-1]
	if name == "Tables" {
		t, ok := parseQuoted(inner)
		if !ok {
			return resource{}, tableerr.New(tableerr.InvalidInput)
		}
		return resource{kind: resTable, table: t}, nil
	}
	if inner == "" {
		return resource{kind: resEntities, table: name}, nil
	}
	pk, rk, ok := ParseKeyPredicate(inner)
	if !ok {
		return resource{}, tableerr.New(tableerr.InvalidInput)
	}
	return resource{kind: resEntity, table: name, pk: pk, rk: rk}, nil
}

// isTableSegment accepts what can name a table in a URL: letters and digits,
// and the underscores, hyphens and non-ASCII letters a name breaking the
// rules may hold, which the name rules then refuse as create-table does
// (dialect.CheckRequestTableName).
func isTableSegment(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 0x80) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// ParseKeyPredicate reads the inside of an entity's key predicate, already
// percent-decoded: PartitionKey='a',RowKey='b' (either order), with ” for a
// quote inside a key, as OData string literals double it. A key whose
// decoded bytes are not UTF-8 is refused (F-KEY-UTF8): stored, it would
// compare equal to other such keys and be rewritten by the log.
func ParseKeyPredicate(s string) (pk, rk string, ok bool) {
	pk, rk, ok = parseKeys(s)
	return pk, rk, ok && utf8.ValidString(pk) && utf8.ValidString(rk)
}

func parseKeys(s string) (pk, rk string, ok bool) {
	var havePK, haveRK bool
	for s != "" {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return "", "", false
		}
		name := s[:eq]
		val, n, ok := scanQuotedPrefix(s[eq+1:])
		if !ok {
			return "", "", false
		}
		switch {
		case name == "PartitionKey" && !havePK:
			pk, havePK = val, true
		case name == "RowKey" && !haveRK:
			rk, haveRK = val, true
		default:
			return "", "", false
		}
		s = s[eq+1+n:]
		if s == "" {
			break
		}
		if s[0] != ',' || len(s) == 1 {
			return "", "", false
		}
		s = s[1:]
	}
	return pk, rk, havePK && haveRK
}

// parseQuoted reads exactly one '…' literal.
func parseQuoted(s string) (string, bool) {
	v, n, ok := scanQuotedPrefix(s)
	return v, ok && n == len(s)
}

// scanQuotedPrefix reads a '…' literal (” for a quote) at the start of s and
// returns its text and length.
func scanQuotedPrefix(s string) (string, int, bool) {
	if !strings.HasPrefix(s, "'") {
		return "", 0, false
	}
	// Without a doubled quote the text is a substring, with nothing to build.
	if end := strings.IndexByte(s[1:], '\''); end >= 0 && (end+2 == len(s) || s[end+2] != '\'') {
		return s[1 : end+1], end + 2, true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return "", 0, false
}
