package rest

import (
	"io"
	"net/url"

	"github.com/tableplay/tableplay/core/wire"
)

// Header is a request's or an answer's header fields by canonical key; its
// underlying type is net/http's Header's, so adapters convert without copying.
type Header = wire.Header

// Request is one request to the Table API, as any transport hands it over
// (the native server's adapter, the browser bridge, Serve).
type Request struct {
	// Method is the HTTP method, such as "GET" or "MERGE".
	Method string
	// URL is the request target: a path with its query, or an absolute URL.
	// The transport may hand the same URL to its next request once Handle
	// returns, so it is read, never modified (its strings may be kept).
	URL *url.URL
	// Host is the host the request was sent to; "" takes URL's.
	Host string
	// Account, when set, is the account the host names (a product-style
	// URL, http://{account}.table.localhost/Tables): the whole path is
	// then the resource. Empty: the path's first segment names the
	// account (path-style, the emulator's default).
	Account string
	// Header holds the request's header fields by canonical key. Its map
	// and value slices are the transport's again once Handle returns (the
	// front reuses them for the next request); the strings may be kept.
	Header Header
	// Body is the whole body when the caller holds it in memory; Stream,
	// when set, is read instead, only when the operation needs it and no
	// further than the body limit.
	Body []byte
	// Text, when not empty, is Body as a string (same bytes), for a caller
	// whose Body is never written again: a $batch then reads its parts out of
	// it, and an insert or update its entity, instead of copying the body
	// into a string of its own. A stored entity may keep substrings of Text
	// (property names its table has not yet shared), and so whatever
	// allocation Text lies in: it should hold little besides the body.
	Text string
	// Stream is the body as a reader, for a transport that has not read it;
	// nil when Body holds it.
	Stream io.Reader
	// ContentLength is the declared length of Stream, -1 when unknown.
	ContentLength int64
	// RemoteAddr is the client's address (host:port), checked against a
	// shared access signature's sip.
	RemoteAddr string
	// TLS says the connection was secure (HTTPS), which a shared access
	// signature limited to https requires.
	TLS bool
	// stats receives an entity query's figures (ServeMeasured).
	stats *QueryStats
}

// ResponseWriter receives an answer: its status once, then its body. The
// header fields are set beforehand in the Header given with the request.
// Write must not keep b: the handler reuses the buffers it writes from.
type ResponseWriter interface {
	WriteHeader(status int)
	Write(b []byte) (int, error)
}

// Server answers Table API requests: a Handler (one account) or a Router
// (several).
type Server interface {
	Handle(w ResponseWriter, header Header, r Request)
}
