package dialect

import (
	"bytes"
	"strings"
)

// Batch is the layout of a changeset's answer where it differs from the
// service's (F-BATCH-FAILURE, F-BATCH-FRAMING); the zero value differs in
// nothing. Azurite's (F-AZURITE-BATCH-ANSWER) sets every field.
type Batch struct {
	// Boundary and Changeset, when set, are the answer's boundaries,
	// instead of fresh ones.
	Boundary, Changeset string
	// Numbered prefixes a failed part's message with its index even in a
	// changeset of one, and gives it its position from 1 as Content-ID.
	Numbered bool
	// NoClosingBlank leaves out the blank line the service writes before
	// the closing batch boundary at x-ms-version 2025-07-05.
	NoClosingBlank bool
	// NoPreference leaves Preference-Applied out of the parts.
	NoPreference bool
	// PartVersion answers each part with the DataServiceVersion its request
	// sent (3.0 when none), an update's too.
	PartVersion bool
	// TrimQueried drops the last character of the table in the Location of
	// a part whose URL has a query.
	TrimQueried bool
	// FixedETag writes ETags with all seven fractional digits
	// (F-AZURITE-TIMESTAMP).
	FixedETag bool
	// BareFailure writes a failed part with only DataServiceVersion and a
	// minimal-metadata Content-Type, its error's Time in milliseconds
	// (F-AZURITE-ERROR-TIME).
	BareFailure bool
}

// Echoes says the layout needs each part's DataServiceVersion and whether
// its URL has a query.
func (b *Batch) Echoes() bool { return b.PartVersion || b.TrimQueried }

// BatchForm is the layout of the answer to the changeset in body (not the
// single-GET form): Azurite's when Azurite finds both its boundaries,
// which it reads from the body with regular expressions of its own.
func (d *Dialect) BatchForm(body []byte) Batch {
	if !d.em.BatchAnswer {
		return Batch{}
	}
	b, cs := azuriteBoundaries(body)
	if b == "" || cs == "" {
		return Batch{}
	}
	return Batch{Boundary: b, Changeset: cs, Numbered: true, NoClosingBlank: true, NoPreference: true,
		PartVersion: true, TrimQueried: true, FixedETag: true, BareFailure: true}
}

// BatchCrashes reports whether the implementation fails on a $batch with
// a bare 500 (F-AZURITE-BATCH-500): Azurite does when the envelope is
// malformed, a part's URL is relative or the changeset is empty (crash),
// or it finds no batch boundary in the body.
func (d *Dialect) BatchCrashes(crash bool, body []byte) bool {
	return d.em.BatchCrashes && (crash || azuriteBatchID(body) == "")
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
