package lesson

import (
	"fmt"
	"strconv"
	"strings"
)

// placeholders names what an explanation may quote from the engine's answer,
// and which kind of step measures it ("op" operations, "query" queries,
// "batch" batches, "check" drafts, table names and filters, "draft" drafts,
// "filter" filters, "any" every step).
var placeholders = map[string]string{
	"status": "any", "code": "any", "scanned": "query", "returned": "query", "more": "query",
	"rowKeys": "query", "failedIndex": "batch", "valid": "check", "rules": "check",
	"size": "draft", "count": "draft", "canonical": "filter",
}

// kinds lists the kinds of step s is, for matching placeholders.
func (s *Step) kinds() []string {
	k := []string{"any"}
	switch {
	case s.Operation != nil:
		k = append(k, "op", s.Operation.Kind)
	case s.Draft != nil:
		k = append(k, "check", "draft")
	case s.Filter != nil:
		k = append(k, "check", "filter")
	default:
		k = append(k, "check")
	}
	return k
}

// fields lists the {names} in an explanation, in order; an unclosed brace
// is reported as the name "{".
func fields(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			return append(out, "{")
		}
		out = append(out, text[i+1:i+j])
		text = text[i+j+1:]
	}
}

// checkPlaceholders refuses an explanation naming a figure its step does not
// measure.
func (s *Step) checkPlaceholders() error {
	for _, f := range fields(s.Explain) {
		kind, ok := placeholders[f]
		if !ok {
			return fmt.Errorf("explain: {%s} is not a figure the engine answers", f)
		}
		if !contains(s.kinds(), kind) {
			return fmt.Errorf("explain: {%s} is not measured for this step", f)
		}
	}
	return nil
}

// Explanation is the step's after-text with its placeholders replaced by the
// figures of the outcome; a figure the engine did not give reads "?".
func Explanation(s Step, got Expect) string {
	value := func(name string) string {
		num := func(p *int) string {
			if p == nil {
				return "?"
			}
			return group(*p)
		}
		list := func(l []string) string {
			if len(l) == 0 {
				return "none"
			}
			return strings.Join(l, ", ")
		}
		switch name {
		case "status":
			return strconv.Itoa(got.Status)
		case "code":
			if got.Code == "" {
				return "no error code"
			}
			return got.Code
		case "scanned":
			return num(got.Scanned)
		case "returned":
			return num(got.Returned)
		case "size":
			return num(got.Size)
		case "count":
			return num(got.Count)
		case "failedIndex":
			return num(got.FailedIndex)
		case "more":
			if got.More == nil {
				return "?"
			}
			if *got.More {
				return "a continuation"
			}
			return "no continuation"
		case "rowKeys":
			return list(got.RowKeys)
		case "rules":
			return list(got.Rules)
		case "valid":
			if got.Valid == nil {
				return "?"
			}
			if *got.Valid {
				return "valid"
			}
			return "not valid"
		case "canonical":
			return got.Canonical
		}
		return "?"
	}
	var b strings.Builder
	text := s.Explain
	for {
		i := strings.IndexByte(text, '{')
		j := strings.IndexByte(text[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString(value(text[i+1 : i+j]))
		text = text[i+j+1:]
	}
}

// group writes n with a comma every three digits, as the lessons' prose does
// (2,000).
func group(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
