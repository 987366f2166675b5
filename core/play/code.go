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
	var o Operation
	if err := readJSON(opJSON, &o); err != nil {
		return errorJSON("not an operation: " + err.Error())
	}
	t, err := o.typed()
	if err != nil {
		return errorJSON(err.Error())
	}
	s, err := codegen.For(t, language, codegen.Options{Endpoint: endpoint, SAS: a.accountSAS()})
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
