// Package entity holds the Table service's entity and every rule an entity or
// a table name must satisfy: table names, property names, keys, value sizes,
// the property count and the entity size. Each violation names its rule
// (tableerr.Rule) so the playground can show it.
//
// A Draft — fields as a client wrote them, already typed by edm — goes in;
// an Entity or the violations come out, either the first one in the order the
// service reports them (Build) or all of them (Check, for the editor).
package entity
