// Package filter is the $filter query language of the Table service (an
// OData v3 subset): a hand-written lexer and recursive-descent parser, a typed
// evaluator with the live service's semantics, the key range a query can be
// narrowed to, and the $select and $top options.
//
// The AST prints back to a canonical string, which the playground's "explain"
// shows and which parses to the same canonical string again.
package filter
