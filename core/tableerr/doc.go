// Package tableerr is the Table service's error catalogue: every error code
// with its HTTP status and the live service's message, and a typed Error that
// carries them — plus, for validation failures, the data the playground's rule
// card renders (which rule, which property, measured value, limit, source).
//
// It holds data only: odata spells error bodies and rest writes responses.
package tableerr
