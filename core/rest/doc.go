// Package rest is the Table service's HTTP interface: one Handle entry point
// (its own Request, Header and ResponseWriter, so the browser build links no
// net/http) that every host serves: the native server through core/resthttp,
// the browser through the wasm bridge, packages without HTTP through Serve. It
// routes the path-style account URLs, parses resource segments and key
// predicates by hand, negotiates the OData metadata level, verifies Shared
// Key signatures, runs $batch envelopes as store transactions and turns every
// engine error into the service's status, headers and odata.error body.
//
// It is the only package under core that knows the Table API's HTTP
// semantics; the formats it reads and writes have packages of their own:
// core/wire the HTTP message text, core/mediatype media types,
// core/xmlbody the XML bodies of the ACL and service endpoints, core/mac
// the signatures' HMAC-SHA256.
package rest
