// Package dialect is a profile's rows (core/profile) read for the Table
// API's pipeline: core/rest answers as Azure Table Storage does and asks a
// Dialect at each point where another implementation answers otherwise.
// Each concern is decided in one file, from the profile's fields alone, as
// core/op/kinds.go's rows are read: routing (endpoints an implementation
// lacks, its table-name rule), limits (what it refuses or lets through),
// the answer's shape (header fields, media types, ETags, Location,
// Preference-Applied, body forms), continuation tokens, errors (their
// codes, bodies and header fields) and a $batch answer's layout. The zero
// profile's Dialect is Azure's, and differs in nothing.
package dialect
