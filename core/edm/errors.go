package edm

// Problem classifies why a text does not parse as a value, so that the
// caller can pick the service's error code (edm knows no HTTP).
type Problem uint8

const (
	// Malformed: the text is not a value of the type (the service's InvalidInput).
	Malformed Problem = iota + 1
	// OutOfRange: well-formed but outside what the service stores, such as a
	// DateTime before 1601 (the service's OutOfRangeInput).
	OutOfRange
	// Overflow: an Edm.Int64 beyond 64 bits; the service answers InvalidInput
	// with a different, generic message.
	Overflow
	// WrongJSONKind: the JSON value's kind cannot carry the declared type,
	// e.g. a number annotated Edm.Guid (InvalidInput).
	WrongJSONKind
	// UnknownType: the @odata.type names no Edm type (InvalidInput).
	UnknownType
)

// ParseError says why a value did not parse: the type asked for, the text
// given and the kind of problem.
type ParseError struct {
	// Type is the Edm type the text was parsed as.
	Type Type
	// Text is the text as given.
	Text string
	// Problem is the kind of failure, from which the caller picks the error code.
	Problem Problem
	Reason  string // a short human phrase, e.g. "not valid base64"
}

// Error implements error.
func (e *ParseError) Error() string {
	name := e.Type.String()
	if name == "" {
		name = "value"
	}
	return name + " " + quoteShort(e.Text) + ": " + e.Reason
}

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "'" + s + "'"
}

func malformed(t Type, text, reason string) *ParseError {
	return &ParseError{Type: t, Text: text, Problem: Malformed, Reason: reason}
}
