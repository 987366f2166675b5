// Package rest is the Table service's HTTP interface: one http.Handler that
// every host (the native server, the browser, an edge runtime) serves. It
// routes the path-style account URLs, parses resource segments and key
// predicates by hand, negotiates the OData metadata level, verifies Shared
// Key signatures, runs $batch envelopes as store transactions and turns every
// engine error into the service's status, headers and odata.error body.
//
// It is the only package under core that knows HTTP.
package rest
