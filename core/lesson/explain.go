package lesson

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/locale"
)

// The ids of the words figures fill in, in the locale's catalogue.
const (
	msgContinuation   = "lesson.figure.continuation"
	msgNoContinuation = "lesson.figure.noContinuation"
	msgValid          = "lesson.figure.valid"
	msgNotValid       = "lesson.figure.notValid"
	msgNone           = "lesson.figure.none"
	msgNoCode         = "lesson.figure.noCode"
)

// MessageIDs lists the catalogue ids this package uses.
func MessageIDs() []string {
	return []string{msgContinuation, msgNoContinuation, msgValid, msgNotValid, msgNone, msgNoCode}
}

// figures lists the {names} an explanation of step s may quote and their
// values in the outcome got, in the locale's words and numbers: the status
// and code for every step, and what the step's kind measures. A figure the
// engine did not give reads "?".
func figures(loc *locale.Locale, s Step, got Expect) [][2]string {
	num := func(p *int) string {
		if p == nil {
			return "?"
		}
		return loc.Int(int64(*p))
	}
	yes := func(p *bool, y, n string) string {
		if p == nil {
			return "?"
		}
		if *p {
			return y
		}
		return n
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return loc.T(msgNone)
		}
		return strings.Join(l, ", ")
	}
	code := got.Code
	if code == "" {
		code = loc.T(msgNoCode)
	}
	out := [][2]string{{"status", strconv.Itoa(got.Status)}, {"code", code}}
	switch {
	case s.Operation != nil && s.Operation.Kind == "query":
		out = append(out, [2]string{"returned", num(got.Returned)}, [2]string{"scanned", num(got.Scanned)},
			[2]string{"more", yes(got.More, loc.T(msgContinuation), loc.T(msgNoContinuation))}, [2]string{"rowKeys", list(got.RowKeys)})
	case s.Operation != nil && s.Operation.Kind == "batch":
		out = append(out, [2]string{"failedIndex", num(got.FailedIndex)})
	case s.Operation == nil:
		out = append(out, [2]string{"valid", yes(got.Valid, loc.T(msgValid), loc.T(msgNotValid))}, [2]string{"rules", list(got.Rules)})
		if s.Draft != nil {
			out = append(out, [2]string{"size", num(got.Size)}, [2]string{"count", num(got.Count)})
		}
		if s.Filter != nil {
			out = append(out, [2]string{"canonical", got.Canonical})
		}
	}
	return out
}

// fill replaces each {name} of text by value(name); bad names the first
// placeholder without a value (value answers "", false), or is "{" when a
// brace is not closed.
func fill(text string, value func(string) (string, bool)) (out, bad string) {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String(), ""
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			return "", "{"
		}
		v, ok := value(text[i+1 : i+j])
		if !ok {
			return "", text[i+1 : i+j]
		}
		b.WriteString(text[:i])
		b.WriteString(v)
		text = text[i+j+1:]
	}
}

func lookup(fs [][2]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, f := range fs {
			if f[0] == name {
				return f[1], true
			}
		}
		return "", false
	}
}

// checkPlaceholders refuses an explanation naming a figure its step does not
// measure.
func (s *Step) checkPlaceholders() error {
	if _, bad := fill(s.Explain, lookup(figures(nil, *s, Expect{}))); bad != "" {
		return fmt.Errorf("explain: {%s} is not a figure the engine answers for this step", bad)
	}
	return nil
}

// Explanation is the step's after-text with its placeholders replaced by the
// figures of the outcome, in the locale's words and numbers (2,000 in
// English, 2000 in Polish).
func Explanation(loc *locale.Locale, s Step, got Expect) string {
	out, _ := fill(s.Explain, lookup(figures(loc, s, got)))
	return out
}
