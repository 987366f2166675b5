package rest

import (
	"bytes"
	"strconv"
	"strings"
)

// Azurite finds a $batch's boundaries in its body, not in its headers, with
// regular expressions of its own; the azurite-3.37 profile reads them as it
// does (F-AZURITE-BATCH-500, F-AZURITE-BATCH-ANSWER).

// countAbove reports whether s is a whole number above limit, a $top
// Azurite takes (F-AZURITE-LAX-VALUES).
func countAbove(s string, limit int) bool {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return err == nil && n > limit
}

// emulatedBatch is the boundaries Azurite answers a changeset with.
type emulatedBatch struct {
	batch, changeset string
}

// azuriteBatchID is what follows the body's first "--batch_", as Azurite's
// /--batch_(\w+-?)+/ takes it: "" when there is none, which Azurite fails
// on.
func azuriteBatchID(body []byte) string {
	const delim = "--batch_"
	for rest := body; ; {
		i := bytes.Index(rest, []byte(delim))
		if i < 0 {
			return ""
		}
		rest = rest[i+len(delim):]
		if id := wordRun(rest); id != "" {
			return id
		}
	}
}

// azuriteBoundaries are the boundaries Azurite answers a changeset with:
// the body's batch boundary and the first "boundary=" value in it (the
// changeset's), each renamed as Azurite renames them; "" for one it does
// not find.
func azuriteBoundaries(body []byte) (batch, changeset string) {
	if id := azuriteBatchID(body); id != "" {
		batch = "batchresponse_" + id
	}
	const param = "boundary="
	if i := bytes.Index(body, []byte(param)); i >= 0 {
		changeset = strings.Replace(wordRun(body[i+len(param):]), "changeset", "changesetresponse", 1)
	}
	return batch, changeset
}

// wordRun is the longest prefix of b made of word characters (letters,
// digits, '_'), each run of them followed by at most one '-', as
// JavaScript's (\w+-?)+ matches.
func wordRun(b []byte) string {
	n := 0
	for n < len(b) {
		start := n
		for n < len(b) && isWord(b[n]) {
			n++
		}
		if n == start {
			break
		}
		if n < len(b) && b[n] == '-' {
			n++
		}
	}
	return string(b[:n])
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}
