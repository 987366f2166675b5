// Package docscheck keeps documentation examples true: it finds every
// <table-playground> element in Markdown and HTML files, loads its start
// state (inline, a local src file, an example or a lesson) through the
// engine, runs a lesson's steps and the element's optional expectation (the
// expect attribute, in the vocabulary of core/lesson), and reports each
// example that no longer holds by file and line (docs/embedding.md).
package docscheck
