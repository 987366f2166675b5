package store

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
)

// The service's continuation tokens (F-CONTINUATION-TOKEN, F-TABLE-LIST-ORDER): "1!<len>!<payload>", the
// payload base64 with '+', '/', '=' written '*', '_', '-', and len its length.

func toTokenAlphabet(r rune) rune {
	switch r {
	case '+':
		return '*'
	case '/':
		return '_'
	case '=':
		return '-'
	}
	return r
}

func fromTokenAlphabet(r rune) rune {
	switch r {
	case '*':
		return '+'
	case '_':
		return '/'
	case '-':
		return '='
	}
	return r
}

// EncodeToken makes the token for a PartitionKey or RowKey, e.g. "13" →
// "1!4!MTM-".
func EncodeToken(key string) string {
	p := strings.Map(toTokenAlphabet, base64.StdEncoding.EncodeToString([]byte(key)))
	return "1!" + strconv.Itoa(len(p)) + "!" + p
}

// DecodeToken reads a token made by EncodeToken (or, as the service also
// accepts, a bare payload).
func DecodeToken(tok string) (string, bool) {
	payload := tok
	if strings.HasPrefix(tok, "1!") {
		rest := tok[2:]
		i := strings.IndexByte(rest, '!')
		if i < 0 {
			return "", false
		}
		n, err := strconv.Atoi(rest[:i])
		payload = rest[i+1:]
		if err != nil || n != len(payload) {
			return "", false
		}
	}
	b, err := base64.StdEncoding.DecodeString(strings.Map(fromTokenAlphabet, payload))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// fileTimeTicks converts a Timestamp to a Windows FILETIME (100 ns since
// 1601), the number the service puts in a NextTableName token.
func fileTimeTicks(t edm.Ticks) uint64 { return uint64(t - edm.MinTicks) }

// encodeTableToken makes a NextTableName token: the lower-cased name, byte
// 0x01 and 16 hex digits (live: 1!40!dGFibGUzNTg2MTlkMgEwMWQzNTljZGFiMWI3OTg1).
func encodeTableToken(lower string, created edm.Ticks) string {
	return EncodeToken(lower + "\x01" + fmt.Sprintf("%016x", fileTimeTicks(created)))
}

// decodeTableToken returns the table name a token resumes at, as the token
// spells it: the caller keys it (tableKey), which folds case only where
// names do (F-COSMOS-TABLE-CASE).
func decodeTableToken(tok string) (string, bool) {
	s, ok := DecodeToken(tok)
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(s, 1); i >= 0 {
		s = s[:i]
	}
	return s, true
}
