package tableerr

// Error is a Table service error: the code, its HTTP status and the message
// the service writes (without the RequestId/Time lines, which rest adds).
// Rule is set for validation failures.
type Error struct {
	// Code is the service's error code, as the body's odata.error.code.
	Code Code
	// Status is the HTTP status that goes with Code.
	Status int
	// Message is the message text; a batch prefixes it with the failing index.
	Message string
	// Rule is the broken rule behind a validation failure; nil otherwise.
	Rule *Rule
}

// Error implements error as "Code: message".
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// New returns the error for code with its catalogue status and message.
func New(code Code) *Error {
	return &Error{Code: code, Status: code.Status(), Message: code.Message()}
}

// WithMessage returns the error for code with a message of its own, e.g. a
// filter's "Syntax error at position 7 in 'aaa bbb ccc'.".
func WithMessage(code Code, message string) *Error {
	return &Error{Code: code, Status: code.Status(), Message: message}
}

// Broke returns the error for code carrying the rule that was broken.
func Broke(code Code, r Rule) *Error {
	e := New(code)
	e.Rule = &r
	return e
}

// Prefixed returns a copy of e whose message starts with "<index>:", the form
// a failed batch operation reports (F-BATCH-FAILURE).
func (e *Error) Prefixed(index int) *Error {
	c := *e
	c.Message = itoa(index) + ":" + e.Message
	return &c
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
