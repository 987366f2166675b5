// Package lesson runs the playground's lessons: JSON documents that start
// from an account (a snapshot, optionally with generated datasets) and walk
// through steps, each an operation sent to the engine, a draft or table name
// checked against the rules, or a $filter explained, with the outcome the
// lesson claims. The same code serves the page (one step at a time, the
// exchange shown) and the check that keeps every lesson true.
package lesson
