package store

import (
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/tableerr"
)

// The service's limits on CORS rules (F-CORS-LIMITS).
const (
	// MaxCorsRules is the most CORS rules a service holds.
	MaxCorsRules = 5
	// MaxCorsText is the most bytes all rules' lists hold together
	// (origins, methods and both header lists, without the XML around them).
	MaxCorsText = 2 << 10
	// MaxCorsItems is the most origins in one rule, and the most literal
	// headers in one of its header lists.
	MaxCorsItems = 64
	// MaxCorsPrefixed is the most prefixed headers ("x-ms-meta-*") in one
	// header list.
	MaxCorsPrefixed = 2
	// MaxCorsItem is the longest origin or header, in bytes.
	MaxCorsItem = 256
)

// corsLists are a rule's lists read once, when the rule is set (or read
// back from a log or a document), so that a request consults them without
// reading the rule's text again.
type corsLists struct {
	origins, methods, headers corsList
}

// corsList is a comma-separated rule list: "*" (everything), exact items
// and prefixes (items ending in "*", the star dropped). Empty items are
// left out.
type corsList struct {
	all             bool
	exact, prefixes []string
	longest         int // the longest item's length
}

func parseCorsList(s string) corsList {
	var l corsList
	for s != "" {
		var item string
		item, s, _ = strings.Cut(s, ",")
		item = strings.TrimSpace(item)
		l.longest = max(l.longest, len(item))
		switch {
		case item == "":
		case item == "*":
			l.all = true
		case strings.HasSuffix(item, "*"):
			l.prefixes = append(l.prefixes, item[:len(item)-1])
		default:
			l.exact = append(l.exact, item)
		}
	}
	return l
}

// has reports whether the list allows value: "*", an exact item (case
// aside) or a prefix of it.
func (l *corsList) has(value string) bool {
	if l.all {
		return true
	}
	for _, p := range l.prefixes {
		if len(value) >= len(p) && strings.EqualFold(value[:len(p)], p) {
			return true
		}
	}
	for _, e := range l.exact {
		if strings.EqualFold(e, value) {
			return true
		}
	}
	return false
}

func (l *corsList) items() int {
	n := len(l.exact) + len(l.prefixes)
	if l.all {
		n++
	}
	return n
}

// lists returns the rule's lists: those read when the rule was stored, or
// read now for a rule built elsewhere.
func (r *CorsRule) lists() *corsLists {
	if r.parsed != nil {
		return r.parsed
	}
	return r.readLists()
}

// readLists reads the rule's origins, methods and headers lists.
func (r *CorsRule) readLists() *corsLists {
	return &corsLists{origins: parseCorsList(r.AllowedOrigins), methods: parseCorsList(r.AllowedMethods), headers: parseCorsList(r.AllowedHeaders)}
}

// Allows reports whether the rule admits a request from origin with method
// that sends headers (a preflight's Access-Control-Request-Headers, each
// name trimmed; empty names are skipped).
func (r *CorsRule) Allows(origin, method string, headers []string) bool {
	l := r.lists()
	if !l.origins.has(origin) || !l.methods.has(method) {
		return false
	}
	for _, h := range headers {
		if h = strings.TrimSpace(h); h != "" && !l.headers.has(h) {
			return false
		}
	}
	return true
}

// AllOrigins reports whether the rule allows every origin ("*"), for
// which the service answers Access-Control-Allow-Origin: * (F-CORS-VARY).
func (r *CorsRule) AllOrigins() bool { return strings.TrimSpace(r.AllowedOrigins) == "*" }

// corsError is a rule set the service refuses: the error it answers and
// why, for the messages of a log or a document that holds it.
type corsError struct {
	code tableerr.Code
	why  string
}

func (e *corsError) Error() string { return "CORS rules: " + e.why }

// checkCors applies the service's limits to a set of rules and returns
// them with their lists read (F-CORS-LIMITS). The total size is checked
// before any list is split, so a refused set costs one pass over its text.
// Without limits it applies only the rules an earlier build kept to (five
// rules, each with origins and methods): a log or a document that build
// wrote holds acknowledged changes, and must load (F-CORS-LIMITS).
func checkCors(rules []CorsRule, limits bool) ([]CorsRule, *corsError) {
	if len(rules) > MaxCorsRules {
		return nil, &corsError{tableerr.InvalidXMLDocument, fmt.Sprintf("%d rules, at most %d", len(rules), MaxCorsRules)}
	}
	text := 0
	for _, r := range rules {
		if r.AllowedOrigins == "" || r.AllowedMethods == "" || r.MaxAgeInSeconds < 0 {
			return nil, &corsError{tableerr.InvalidXMLDocument, "a rule without origins or methods, or with a negative MaxAgeInSeconds"}
		}
		text += len(r.AllowedOrigins) + len(r.AllowedMethods) + len(r.AllowedHeaders) + len(r.ExposedHeaders)
	}
	if limits && text > MaxCorsText {
		return nil, &corsError{tableerr.InvalidXMLNodeValue, fmt.Sprintf("%d bytes of lists, at most %d", text, MaxCorsText)}
	}
	if len(rules) == 0 {
		return nil, nil
	}
	out := make([]CorsRule, len(rules))
	for i, r := range rules {
		l := r.readLists()
		exposed := parseCorsList(r.ExposedHeaders)
		switch {
		case !limits:
		case l.origins.items() > MaxCorsItems:
			return nil, &corsError{tableerr.InvalidXMLNodeValue, fmt.Sprintf("%d origins in a rule, at most %d", l.origins.items(), MaxCorsItems)}
		case max(l.origins.longest, l.headers.longest, exposed.longest) > MaxCorsItem:
			return nil, &corsError{tableerr.InvalidXMLNodeValue, fmt.Sprintf("an origin or header longer than %d bytes", MaxCorsItem)}
		case len(l.headers.exact) > MaxCorsItems || len(exposed.exact) > MaxCorsItems:
			return nil, &corsError{tableerr.InvalidXMLNodeValue, fmt.Sprintf("more than %d literal headers in a list", MaxCorsItems)}
		case len(l.headers.prefixes) > MaxCorsPrefixed || len(exposed.prefixes) > MaxCorsPrefixed:
			return nil, &corsError{tableerr.InvalidXMLNodeValue, fmt.Sprintf("more than %d prefixed headers in a list", MaxCorsPrefixed)}
		}
		r.parsed = l
		out[i] = r
	}
	return out, nil
}

// Cors returns the account's CORS rules, with their lists read once when
// they were set: every request with CORS consults them. The slice is
// shared and must not be modified.
func (s *Store) Cors() []CorsRule {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.props.Cors
}
