package play

import (
	"time"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/rest"
)

// codeSASLife is how long the SAS in generated curl commands stays valid.
const codeSASLife = 24 * time.Hour

// CodeFor generates the program that performs an operation (JSON of
// Operation) in a language: {language, code, notes}, or {error}. The code
// connects to endpoint (the emulator's well-known one when empty).
func (a *API) CodeFor(opJSON []byte, language, endpoint string) []byte {
	return a.code(opJSON, language, codegen.Options{Endpoint: endpoint})
}

// CodeForTarget is CodeFor for code copied from an embed
// (docs/embedding.md): it connects to endpoint as account (the emulator's
// well-known ones when empty) and, with createTable, creates the table it
// uses first; without it, the code leaves the table to the reader, an
// insert's too.
func (a *API) CodeForTarget(opJSON []byte, language, endpoint, account string, createTable bool) []byte {
	return a.code(opJSON, language, codegen.Options{Endpoint: endpoint, Account: account, CreateTable: createTable, KeepTable: !createTable})
}

func (a *API) code(opJSON []byte, language string, opt codegen.Options) []byte {
	var o Operation
	if err := readJSON(opJSON, &o); err != nil {
		return errorJSON("not an operation: " + err.Error())
	}
	t, err := o.typed()
	if err != nil {
		return errorJSON(err.Error())
	}
	if opt.SAS == "" {
		opt.SAS = a.accountSAS()
	}
	opt.Locale = a.Locale
	s, err := codegen.For(t, language, opt)
	if err != nil {
		return errorJSON(err.Error())
	}
	return mustJSON(s)
}

// accountSAS signs an account SAS for every table operation with the
// account key, valid from a minute ago for codeSASLife.
func (a *API) accountSAS() string {
	now := a.Clock().UTC()
	s := rest.SAS{Account: true, Version: "2019-02-02", Services: "t", ResourceTypes: "sco", Permissions: "rwdlacu",
		Start: now.Add(-time.Minute).Format("2006-01-02T15:04:05Z"), Expiry: now.Add(codeSASLife).Format("2006-01-02T15:04:05Z"),
		Protocol: "https,http"}
	s.Signature = a.Creds.SignSAS(s)
	return s.Encode()
}
