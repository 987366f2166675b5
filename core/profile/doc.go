// Package profile describes, as data, how an implementation of the Table
// API answers differently from Azure Table Storage: Azure Cosmos DB for
// Table and Azurite are the same protocol served by other engines. A
// Profile holds a limit, an order, a rule or an error choice for each
// difference, each documented in docs/fidelity.md under an F- id; the
// engine (core/entity, core/store, core/rest) reads the field at the one
// place the behaviour is decided, so there is one engine and no forked
// handlers. The zero differences, Azure(), are the service tableplay
// reproduces by default.
package profile
