package play

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
)

// Difference is one way two answers to the same request differ.
type Difference struct {
	// Part is "status", "code", "header" or "body".
	Part string `json:"part"`
	// Name is the header's name, or the body's JSON path ("value[0].Age").
	Name string `json:"name,omitempty"`
	// Endpoint and Engine are the two values, cut to maxShown bytes; ""
	// when that side has none.
	Endpoint string `json:"endpoint"`
	// Engine is the engine's value, shown as Endpoint is.
	Engine string `json:"engine"`
	// Expected says the values differ by nature, not by behaviour: a date,
	// a request id, the ETag and Timestamp of a copied entity, CORS headers
	// that only a cross-origin answer carries.
	Expected bool `json:"expected,omitempty"`
}

// Comparison is Compare's answer.
type Comparison struct {
	// Same says no difference is unexpected.
	Same bool `json:"same"`
	// Differences are the differences, status first, then the code, the
	// headers by name and the body: at most maxDifferences unexpected ones
	// and maxExpected expected ones.
	Differences []Difference `json:"differences"`
	// More counts unexpected differences left out.
	More int `json:"more,omitempty"`
	// MoreExpected counts expected differences left out.
	MoreExpected int `json:"moreExpected,omitempty"`
	// EndpointBytes and EngineBytes are the bodies' sizes.
	EndpointBytes int `json:"endpointBytes"`
	// EngineBytes is the engine's body size.
	EngineBytes int `json:"engineBytes"`
}

// compareInput is what the page hands Compare: two answers to one request
// and the account URL each side's bodies name (the engine's scratch
// account has another URL than the endpoint).
type compareInput struct {
	Endpoint     rest.Reply `json:"endpoint"`
	Engine       rest.Reply `json:"engine"`
	EndpointBase string     `json:"endpointBase"`
	EngineBase   string     `json:"engineBase"`
}

const (
	maxDifferences = 50
	maxExpected    = 10
	maxShown       = 200
)

// volatileHeader reports the headers (lower case) that differ between any
// two answers.
func volatileHeader(name string) bool {
	switch name {
	case "date", "x-ms-request-id", "x-ms-client-request-id", "etag", "vary", "server":
		return true
	}
	return false
}

// hopHeader reports the headers (lower case) that belong to one
// connection, not to the answer; a browser shows them or not as it likes.
func hopHeader(name string) bool {
	switch name {
	case "connection", "keep-alive", "transfer-encoding":
		return true
	}
	return false
}

// volatileField reports the body fields a copy of an entity cannot keep.
func volatileField(name string) bool { return name == "odata.etag" || name == "Timestamp" }

// Compare sets two answers to the same request side by side (JSON of
// compareInput) and lists how they differ.
func Compare(inJSON []byte) []byte {
	var in compareInput
	if err := readJSON(inJSON, &in); err != nil {
		return errorJSON("not two answers: " + err.Error())
	}
	c := comparer{}
	a, b := in.Endpoint, in.Engine
	rebase := func(s string) string {
		if in.EngineBase == "" || in.EndpointBase == "" {
			return s
		}
		return strings.ReplaceAll(s, in.EngineBase, in.EndpointBase)
	}
	if a.Status != b.Status {
		c.add(Difference{Part: "status", Endpoint: strconv.Itoa(a.Status) + " " + a.StatusText, Engine: strconv.Itoa(b.Status) + " " + b.StatusText})
	}
	codeA, messageA := ErrorOf([]byte(a.Body))
	codeB, messageB := ErrorOf([]byte(b.Body))
	if codeA != codeB {
		c.add(Difference{Part: "code", Endpoint: codeA, Engine: codeB})
	}
	bodyB := rebase(b.Body)
	// An error's message ends with its own request id and time.
	body := comparer{sameMessage: codeA != "" && messageA == messageB}
	body.bodies(a.Body, bodyB)
	bodyDiffers := body.unexpected > 0
	rebased := make([][2]string, len(b.Headers))
	for i, kv := range b.Headers {
		rebased[i] = [2]string{kv[0], rebase(kv[1])}
	}
	ha, hb := headerMap(a.Headers), headerMap(rebased)
	for _, name := range unionKeys(ha, hb) {
		if hopHeader(name) || ha[name] == hb[name] {
			continue
		}
		expected := volatileHeader(name) || strings.HasPrefix(name, "access-control-") ||
			name == "content-length" && !bodyDiffers
		c.add(Difference{Part: "header", Name: name, Endpoint: ha[name], Engine: hb[name], Expected: expected})
	}
	for _, d := range body.list {
		c.add(d)
	}
	c.more += body.more
	c.unexpected += body.more
	c.moreExpected += body.moreExpected
	out := Comparison{Same: c.unexpected == 0, Differences: c.list, More: c.more, MoreExpected: c.moreExpected, EndpointBytes: len(a.Body), EngineBytes: len(b.Body)}
	if out.Differences == nil {
		out.Differences = []Difference{}
	}
	return mustJSON(out)
}

// comparer collects differences up to maxDifferences. sameMessage says two
// error bodies say the same but for their request ids and times.
type comparer struct {
	list         []Difference
	unexpected   int // listed or not
	more         int // unexpected, not listed
	moreExpected int // expected, not listed
	expected     int // listed
	sameMessage  bool
}

// errorMessagePath is where an error body's message is.
const errorMessagePath = "odata.error.message.value"

func (c *comparer) add(d Difference) {
	switch {
	case d.Expected && c.expected >= maxExpected:
		c.moreExpected++
		return
	case d.Expected:
		c.expected++
	case c.unexpected >= maxDifferences:
		c.unexpected++
		c.more++
		return
	default:
		c.unexpected++
	}
	d.Endpoint, d.Engine = cut(d.Endpoint), cut(d.Engine)
	c.list = append(c.list, d)
}

// bodies compares two bodies: as JSON values when both are JSON objects,
// else as bytes (the first offset where they part).
func (c *comparer) bodies(a, b string) {
	if a == b {
		return
	}
	if isObject(a) && isObject(b) {
		c.values("", gjson.Parse(a), gjson.Parse(b), false)
		return
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	c.add(Difference{Part: "body", Name: "byte " + strconv.Itoa(i), Endpoint: a[i:], Engine: b[i:]})
}

// isObject says whether a body is one JSON object, within the nesting the
// engine reads.
func isObject(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "{") && odata.WithinDepth([]byte(s), odata.MaxDepth) && gjson.Valid(s)
}

// values compares two JSON values at path; expected marks a subtree of
// volatile fields.
func (c *comparer) values(path string, a, b gjson.Result, expected bool) {
	if a.IsObject() && b.IsObject() {
		ma, mb := a.Map(), b.Map()
		for _, k := range unionKeys(ma, mb) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			field, _, _ := strings.Cut(k, "@")
			c.values(p, ma[k], mb[k], expected || volatileField(k) || volatileField(field))
		}
		return
	}
	if a.IsArray() && b.IsArray() {
		la, lb := a.Array(), b.Array()
		for i := 0; i < max(len(la), len(lb)); i++ {
			var x, y gjson.Result
			if i < len(la) {
				x = la[i]
			}
			if i < len(lb) {
				y = lb[i]
			}
			c.values(path+"["+strconv.Itoa(i)+"]", x, y, expected)
		}
		return
	}
	if a.Raw != b.Raw {
		expected = expected || path == errorMessagePath && c.sameMessage
		c.add(Difference{Part: "body", Name: path, Endpoint: a.Raw, Engine: b.Raw, Expected: expected})
	}
}

// headerMap joins each header's values, under its lower-case name.
func headerMap(pairs [][2]string) map[string]string {
	m := map[string]string{}
	for _, kv := range pairs {
		k := strings.ToLower(kv[0])
		if v, ok := m[k]; ok {
			m[k] = v + ", " + kv[1]
		} else {
			m[k] = kv[1]
		}
	}
	return m
}

// unionKeys lists the keys of both maps once, in order.
func unionKeys[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func cut(s string) string {
	if len(s) > maxShown {
		return s[:maxShown] + "…"
	}
	return s
}
