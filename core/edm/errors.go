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
	// ID names Reason stably ("not-valid-base64"), so that a rule card can
	// say it in the reader's language (see Reasons); empty for a reason
	// edm did not write.
	ID string
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

// Quoted is Text as Error quotes it: in single quotes, cut after 40 bytes.
func (e *ParseError) Quoted() string { return quoteShort(e.Text) }

func malformed(t Type, text, reason string) *ParseError {
	return failure(t, text, Malformed, reason)
}

func failure(t Type, text string, p Problem, reason string) *ParseError {
	return &ParseError{Type: t, Text: text, Problem: p, Reason: reason, ID: reasonIDs[reason]}
}

// Reason is one reason a ParseError gives: its stable id beside its
// English text, and whether Error names the type before the text (an
// untyped reason says "value" instead).
type Reason struct {
	ID      string
	Text    string
	Untyped bool
}

// reasons are every reason edm gives, the English as Error writes it. A
// reason whose text depends on the value (a JSON kind) is listed once per
// form.
var reasons = []Reason{
	{ID: "not-a-datetime", Text: "not an ISO 8601 date-time (yyyy-mm-ddThh:mm:ssZ)"},
	{ID: "calendar-range", Text: "a field is out of its calendar range"},
	{ID: "no-such-day", Text: "the day does not exist in that month"},
	{ID: "fraction-digits", Text: "the fraction of a second must have 1 to 7 digits"},
	{ID: "zone-offset", Text: "the zone offset is not valid"},
	{ID: "text-after-time", Text: "unexpected text after the time"},
	{ID: "before-1601", Text: "before 1601-01-01T00:00:00Z, the earliest DateTime the service stores"},
	{ID: "after-9999", Text: "after 9999-12-31T23:59:59.9999999Z"},
	{ID: "not-a-number", Text: "not a number"},
	{ID: "double-range", Text: "outside the range of a 64-bit double"},
	{ID: "not-a-json-number", Text: "not a JSON number"},
	{ID: "type-unknown", Text: "not one of the eight Edm types", Untyped: true},
	{ID: "json-string", Text: "a JSON string cannot carry {type}"},
	{ID: "json-number", Text: "a JSON number cannot carry {type}"},
	{ID: "json-boolean", Text: "a JSON boolean cannot carry {type}"},
	{ID: "json-value", Text: "a JSON value cannot carry {type}"},
	{ID: "string-literal-open", Text: "the string literal is not closed"},
	{ID: "text-after-literal", Text: "unexpected text after the literal"},
	{ID: "literal-open", Text: "the literal is not closed"},
	{ID: "odd-hex-digits", Text: "not an even number of hex digits"},
	{ID: "not-a-literal", Text: "not a literal", Untyped: true},
	{ID: "int64-literal-fraction", Text: "an Int64 literal has no fraction or exponent"},
	{ID: "literal-unsupported", Text: "decimal and single literals are not supported", Untyped: true},
	{ID: "not-base64", Text: "not valid base64"},
	{ID: "not-boolean", Text: "not true or false"},
	{ID: "not-a-guid", Text: "not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"},
	{ID: "not-an-integer", Text: "not an integer"},
	{ID: "int32-range", Text: "outside the range of a 32-bit integer"},
	{ID: "int64-range", Text: "outside the range of a 64-bit integer"},
	{ID: "not-an-edm-type", Text: "not an Edm type", Untyped: true},
}

var reasonIDs = func() map[string]string {
	m := make(map[string]string, len(reasons))
	for _, r := range reasons {
		m[r.Text] = r.ID
	}
	return m
}()

// Reasons lists every reason a ParseError of edm's carries, in a stable
// order. A Text with {type} stands for the type's name there.
func Reasons() []Reason { return append([]Reason(nil), reasons...) }

// UnknownTypeError is the error of a type name that names no Edm type.
func UnknownTypeError(name string) *ParseError {
	return failure(Invalid, name, UnknownType, "not one of the eight Edm types")
}
