package rest

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/wire"
)

// Call is one request handed to Serve without a network: the method, the
// absolute URL, the headers in order and the body.
type Call struct {
	// Method is the HTTP method; "" means GET.
	Method string `json:"method"`
	// URL is the absolute URL, query string included.
	URL string `json:"url"`
	// Headers are name and value pairs in order; a Content-Length among
	// them is ignored (the body's own length counts).
	Headers [][2]string `json:"headers"`
	// Body is the request body; empty for none.
	Body string `json:"body"`
}

// Reply is the handler's answer to a Call: the status line, the headers in
// name order and the body.
type Reply struct {
	// Status is the HTTP status code.
	Status int `json:"status"`
	// StatusText is the status's standard reason phrase, such as "Created".
	StatusText string `json:"statusText"`
	// Headers are name and value pairs sorted by name, one pair per value.
	Headers [][2]string `json:"headers"`
	// Body is the answer's body; empty when it has none.
	Body string `json:"body"`
}

// Serve answers a Call in process, exactly as the native server answers it
// over a connection, so packages that know no HTTP (lessons, say) can drive
// the API.
func (h *Handler) Serve(c Call) Reply {
	return h.serveCall(c, nil)
}

func (h *Handler) serveCall(c Call, stats *QueryStats) Reply {
	method := c.Method
	if method == "" {
		method = "GET"
	}
	u, err := url.Parse(c.URL)
	if err == nil && !wire.ValidMethod(method) {
		err = errInvalidMethod(method)
	}
	if err != nil {
		return Reply{Status: 400, StatusText: wire.StatusText(400), Body: err.Error()}
	}
	u.Host = removeEmptyPort(u.Host)
	r := Request{Method: method, URL: u, Host: u.Host, Header: Header{}, Body: []byte(c.Body),
		ContentLength: int64(len(c.Body)), RemoteAddr: "127.0.0.1:1", stats: stats}
	for _, kv := range c.Headers {
		if strings.EqualFold(kv[0], "Content-Length") {
			continue // the body's own length counts
		}
		r.Header.Add(kv[0], kv[1])
	}
	rec := Recorder{Header: Header{}}
	h.Handle(&rec, rec.Header, r)
	out := Reply{Status: rec.Status(), StatusText: wire.StatusText(rec.Status()), Body: string(rec.Body)}
	if method == "HEAD" {
		out.Body = "" // a server sends HEAD's headers only
	}
	for _, k := range sortedKeys(rec.Header) {
		for _, v := range rec.Header[k] {
			out.Headers = append(out.Headers, [2]string{k, v})
		}
	}
	return out
}

func sortedKeys(h Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// removeEmptyPort drops a ':' with no port after it, as HTTP clients do.
func removeEmptyPort(host string) string {
	if strings.LastIndex(host, ":") > strings.LastIndex(host, "]") {
		return strings.TrimSuffix(host, ":")
	}
	return host
}

// errInvalidMethod is the error Go's HTTP client gives for a method that is
// not a token (Serve has always answered with its text).
type errInvalidMethod string

// Error is the text Go's HTTP client gives, the method quoted.
func (e errInvalidMethod) Error() string {
	return "net/http: invalid method " + strconv.Quote(string(e))
}

// Recorder keeps an answer in memory: Header holds its fields (give it to
// Handle with the Recorder), Body its bytes. The handler sets every field
// before the status, as it must for a connection.
type Recorder struct {
	// Header holds the answer's header fields; it must be non-nil before
	// Handle is called.
	Header Header
	// Body is the answer's body, appended to by each Write.
	Body   []byte
	status int
}

// WriteHeader records the status; only the first call counts.
func (r *Recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

// Write appends to the body (a body without a status is a 200).
func (r *Recorder) Write(b []byte) (int, error) {
	r.WriteHeader(200)
	r.Body = append(r.Body, b...)
	return len(b), nil
}

// Status is the recorded status (200 when none was written).
func (r *Recorder) Status() int {
	if r.status == 0 {
		return 200
	}
	return r.status
}
