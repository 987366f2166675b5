package codegen

import (
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
)

// The languages code is generated for.
const (
	Go         = "go"
	JavaScript = "javascript"
	Python     = "python"
	CSharp     = "csharp"
	Curl       = "curl"
)

// Languages lists the languages For accepts, in the order a picker shows them.
func Languages() []string { return []string{Go, JavaScript, Python, CSharp, Curl} }

// The emulator's well-known account, which the local server (`tableplay
// serve`) and Azurite accept.
const (
	WellKnownAccount  = "devstoreaccount1"
	WellKnownKey      = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	WellKnownEndpoint = "http://127.0.0.1:10002/devstoreaccount1"
)

// Options say where the generated code connects.
type Options struct {
	// Endpoint is the account URL (WellKnownEndpoint when empty); the
	// connection string carries it and the well-known key.
	Endpoint string
	// Account is the account name the connection string carries
	// (WellKnownAccount when empty).
	Account string
	// Key is the account key (base64) the connection string carries;
	// WellKnownKey, which the emulators accept, when empty.
	Key string
	// SAS is the query string of an account SAS for the curl commands
	// (signed by the caller, who holds the key); empty leaves a placeholder
	// the reader replaces.
	SAS string
	// SASOnly says the reader holds the SAS and no key (a room link, a
	// storage account reached with a SAS): every program connects with SAS.
	SASOnly bool
	// CreateTable has the program create the operation's table first
	// (keeping it when it exists), so that it runs against a fresh emulator.
	// A write that creates entities (an insert, an upsert, a batch) does so
	// unless KeepTable is set.
	CreateTable bool
	// KeepTable leaves the table to the reader even for an insert (an embed
	// that names its own table, docs/embedding.md).
	KeepTable bool
	// Locale is the reader's language for the program's comments and the
	// notes (the code stays English); nil writes them in English.
	Locale *locale.Locale
}

// Snippet is generated code and what a reader should know about it.
type Snippet struct {
	// Language is the language asked for, one of Languages().
	Language string `json:"language"`
	// Code is the whole program (or the curl commands), ready to run.
	Code string `json:"code"`
	// Notes say how the language's client maps the entity's types and where
	// it loses precision; empty (not nil) when there is nothing to say.
	Notes []string `json:"notes"`
}

func (o Options) endpoint() string {
	if o.Endpoint == "" {
		return WellKnownEndpoint
	}
	return strings.TrimRight(o.Endpoint, "/")
}

func (o Options) account() string {
	if o.Account == "" {
		return WellKnownAccount
	}
	return o.Account
}

// runsAgainst is the program's first line, a comment (after prefix): where
// it connects.
func (o Options) runsAgainst(prefix string) string {
	if o.Endpoint == "" || o.endpoint() == WellKnownEndpoint {
		return prefix + "Runs against the local emulator: `tableplay serve` (or Azurite) on 127.0.0.1:10002."
	}
	return prefix + "Runs against " + o.endpoint() + "."
}

// createsTable reports whether the program creates the table it uses
// before the operation: asked for, and an operation on a table's entities.
func (o Options) createsTable(kind op.Kind) bool {
	if serviceLevel(kind) {
		return false
	}
	return o.CreateTable || !o.KeepTable && createsEntities(kind)
}

// createsEntities reports whether a kind can create an entity: the code
// for it must run on a server that has no table yet.
func createsEntities(kind op.Kind) bool {
	return kind == op.Insert || kind == op.InsertOrReplace || kind == op.InsertOrMerge || kind == op.Batch
}

// connectionString is the connection string for the endpoint: the account
// and its key, or the endpoint and the SAS (SASOnly).
func (o Options) connectionString() string {
	if o.SASOnly {
		return "TableEndpoint=" + o.endpoint() + ";SharedAccessSignature=" + o.SAS
	}
	protocol, key := "http", o.Key
	if strings.HasPrefix(o.endpoint(), "https:") {
		protocol = "https"
	}
	if key == "" {
		key = WellKnownKey
	}
	return "DefaultEndpointsProtocol=" + protocol + ";AccountName=" + o.account() + ";AccountKey=" + key +
		";TableEndpoint=" + o.endpoint() + ";"
}

// credentialNote is the comment above the connection string (after
// prefix): whose credentials the program carries.
func (o Options) credentialNote(prefix string) string {
	switch {
	case o.SASOnly:
		return prefix + "The SAS you connected with: it grants what it grants until it expires."
	case o.Key != "" && o.Key != WellKnownKey:
		return prefix + "The account key you connected with: keep this program private."
	}
	return prefix + "The emulator's well-known account: replace with your own connection string."
}

// sasNote is the curl script's comment on where its SAS comes from.
func (o Options) sasNote() string {
	switch {
	case o.SASOnly:
		return "# The SAS you connected with."
	case o.Key != "" && o.Key != WellKnownKey:
		return "# An account SAS the engine signed with the account key you connected with."
	}
	return "# An account SAS the engine signed with the emulator's well-known key."
}

// For generates the program for an operation in a language.
func For(o op.Operation, language string, opt Options) (Snippet, error) {
	if err := supported(o); err != nil {
		return Snippet{}, err
	}
	var code string
	var err error
	switch language {
	case Go:
		code, err = goProgram(o, opt)
	case JavaScript:
		code, err = jsProgram(o, opt)
	case Python:
		code, err = pyProgram(o, opt)
	case CSharp:
		code, err = csProgram(o, opt)
	case Curl:
		code, err = curlCommands(o, opt)
	default:
		return Snippet{}, fmt.Errorf("unknown language %q: use one of %s", language, strings.Join(Languages(), ", "))
	}
	if err != nil {
		return Snippet{}, err
	}
	return Snippet{Language: language, Code: localComments(opt.Locale, code, language), Notes: localNotes(opt.Locale, notesFor(o, language))}, nil
}

// supported rejects the operations the generators do not cover, by their
// rows: the XML endpoints (no SDK's table client has them), an entity write
// without its entity, a batch that is not a changeset of writes.
func supported(o op.Operation) error {
	spec := o.Kind.Spec()
	if spec.XML || spec.Answer == op.NoAnswer {
		return fmt.Errorf("no code for %s", o.Kind)
	}
	switch spec.Body {
	case op.EntityBody, op.UpdateBody:
		if o.Entity == nil {
			return fmt.Errorf("%s needs an entity", o.Kind)
		}
	case op.BatchBody:
		if len(o.Operations) == 0 {
			return fmt.Errorf("a batch needs at least one operation")
		}
		for _, p := range o.Operations {
			if ps := p.Kind.Spec(); !ps.InBatch || !ps.Writes {
				return fmt.Errorf("%s cannot be part of a transaction here", p.Kind)
			}
			if err := supported(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// noCode is the error of an operation a language has no statement for: a
// row added in core/op whose code is still to be written here.
func noCode(k op.Kind, language string) error {
	return fmt.Errorf("no %s code for %s", language, k)
}

// call is a store write as the SDKs' table clients split it.
type call uint8

// The calls.
const (
	noCall     call = iota
	addCall         // add / create an entity
	updateCall      // update, with If-Match
	upsertCall      // upsert
	deleteCall      // delete
)

// callOf is the call a write is, and whether it merges (else replaces),
// read from the store write its row names.
func callOf(k op.Kind) (c call, merge bool) {
	spec := k.Spec()
	if !spec.Writes {
		return noCall, false
	}
	switch spec.Store {
	case store.Insert:
		return addCall, false
	case store.Replace:
		return updateCall, false
	case store.Merge:
		return updateCall, true
	case store.InsertOrReplace:
		return upsertCall, false
	case store.InsertOrMerge:
		return upsertCall, true
	case store.Delete:
		return deleteCall, false
	}
	return noCall, false
}

// calls names each call in a language's vocabulary, by call.
type calls [deleteCall + 1]string

// name is a write's call in the vocabulary names, with its mode appended
// for an update or an upsert (Merge or Replace, spelt by modes); a kind
// that is no write has none.
func (names calls) name(k op.Kind, language string, modes [2]string) (string, error) {
	c, merge := callOf(k)
	if names[c] == "" {
		return "", noCode(k, language)
	}
	if c == updateCall || c == upsertCall {
		if merge {
			return names[c] + modes[1], nil
		}
		return names[c] + modes[0], nil
	}
	return names[c], nil
}

// serviceLevel reports whether an operation is the service client's (one
// on tables), not a table client's.
func serviceLevel(k op.Kind) bool {
	r := k.Spec().Resource
	return r == op.TableList || r == op.OneTable
}

// keysOnly reports whether a write sends only the entity's keys (delete).
func keysOnly(k op.Kind) bool { return k.Body() == op.NoBody }

// batchTable is the table a batch writes to.
func batchTable(o op.Operation) string {
	if o.Table == "" && len(o.Operations) > 0 {
		return o.Operations[0].Table
	}
	return o.Table
}

// keys are the keys an operation names.
func keys(o op.Operation) (pk, rk string) {
	if o.Entity != nil && (o.Kind.Body() == op.EntityBody || o.PartitionKey == "" && o.RowKey == "") {
		return o.Entity.PartitionKey, o.Entity.RowKey
	}
	return o.PartitionKey, o.RowKey
}

// entityOf is the entity a write sends, keys included (Delete: keys only).
func entityOf(o op.Operation) *entity.Entity {
	pk, rk := keys(o)
	if o.Entity == nil {
		return &entity.Entity{PartitionKey: pk, RowKey: rk}
	}
	return &entity.Entity{PartitionKey: pk, RowKey: rk, Timestamp: o.Entity.Timestamp, Properties: o.Entity.Properties}
}

// conditional reports whether the write carries a specific ETag (else "*"
// or, for upserts, nothing).
func conditional(o op.Operation) bool {
	return o.Kind.Condition() == op.Conditional && o.IfMatch.Kind == store.MatchETag
}

// etagOf is the text of the ETag the write's If-Match names, as the
// service writes ETags (conditional says there is one).
func etagOf(o op.Operation) string { return odata.ETag(o.IfMatch.ETag) }

// anyVersion reports whether a conditional write goes without a specific
// ETag: the SDKs then send If-Match: *.
func anyVersion(o op.Operation) bool {
	return o.Kind.Condition() == op.Conditional && !conditional(o)
}

// integralDouble reports whether a Double has no fraction, the case several
// SDKs write as a JSON integer.
func integralDouble(v edm.Value) bool {
	f := v.Float()
	_, special := edm.DoubleSpecial(f)
	return !special && f == float64(int64(f))
}
