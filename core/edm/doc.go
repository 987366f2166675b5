// Package edm is the Azure Table service's type system: the eight Edm types as
// typed Go values, their JSON and $filter-literal forms, their total order for
// the query engine, and their contribution to an entity's size.
//
// Values are parsed once, at the edge, from the text the client sent (never via
// float64 for integers), and are immutable afterwards.
package edm
