// Package codegen turns a typed operation into a complete program that does
// the same thing with an official SDK (Go, JavaScript, Python, C#) or with
// curl, with notes on how that language maps the Edm types of the entity
// involved, and where it loses data.
package codegen
