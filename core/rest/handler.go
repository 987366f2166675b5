package rest

import (
	"io"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tableplay/tableplay/core/dialect"
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// MaxBody is the largest request body the service accepts (4 MiB).
const MaxBody = 4 << 20

// secondarySuffix turns the account segment into the account's secondary
// endpoint, as SDKs build it for a path-style URL.
const secondarySuffix = "-secondary"

// Options configure a Handler.
type Options struct {
	// Store holds the account's tables and entities, which the handler
	// reads and writes.
	Store *store.Store
	// Credentials are the account's name and key, which requests are
	// checked against.
	Credentials Credentials
	// Clock gives the Date header, error times and the signature window.
	Clock func() time.Time
	// RequestID makes x-ms-request-id values (and batch boundaries); nil
	// uses random GUID-shaped ids.
	RequestID func() string
}

// Handler serves the Table REST API of one account under /{account}/.
type Handler struct {
	store *store.Store
	// dia is how the implementation answered as differs: the store's
	// profile's, so the account and its HTTP face never disagree.
	dia    *dialect.Dialect
	creds  Credentials
	clock  func() time.Time
	newID  func() string
	date   *wire.DateCache
	bodies *bodyPool
	base   *baseCache
}

// New returns the handler for an account.
func New(o Options) *Handler {
	id := o.RequestID
	if id == nil {
		id = randomID
	}
	return &Handler{store: o.Store, dia: dialect.New(o.Store.Profile()), creds: o.Credentials, clock: o.Clock, newID: id, date: &wire.DateCache{}, bodies: &bodyPool{}, base: &baseCache{}}
}

// randomID returns a GUID-shaped id. Request ids and batch boundaries need
// to be unique, not secret: math/rand/v2's generator (ChaCha8, seeded by the
// runtime) makes them without a system call.
func randomID() string {
	const hex = "0123456789abcdef"
	var b [36]byte
	hi, lo := rand.Uint64(), rand.Uint64()
	j := 0
	for i := 0; i < 32; i++ {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			b[j] = '-'
			j++
		}
		var nib uint64
		if i < 16 {
			nib = hi >> (60 - 4*i) & 0xf
		} else {
			nib = lo >> (60 - 4*(i-16)) & 0xf
		}
		b[j] = hex[nib]
		j++
	}
	return string(b[:])
}

// exchange is one request being answered.
type exchange struct {
	h       *Handler
	w       ResponseWriter
	out     Header // the answer's header fields
	r       Request
	id      string
	now     time.Time
	version string
	format  format
	query   url.Values
	base    string // the account URL, no trailing slash
	// secondary is set for the account's read-only secondary endpoint,
	// /{account}-secondary/ (F-STATS-SECONDARY).
	secondary bool
	applied   string      // Preference-Applied to echo, if any
	grant     *grant      // what a shared access signature allows, when one signed the request
	token     *tokenGrant // what a bearer token allows, when one came
	// authenticated is set once the credentials were checked; anonymous
	// when the request carried none and the host lets it in.
	authenticated, anonymous bool
	kind                     op.Kind // the operation, once decoded
	// parts is what a $batch's parts share while they are decoded (nil
	// for other requests, which then stay smaller).
	parts *partsState
	// vals holds the values of the answer's usual header fields: each field
	// is a one-value slice of it, so setting them allocates nothing beyond
	// the exchange itself.
	vals [numVals]string
}

// The places in exchange.vals.
const (
	valCacheControl = iota
	valServer
	valRequestID
	valVersion
	valNoSniff
	valDate
	valClientRequestID
	valPreferenceApplied
	valContentType
	valContentLength
	valETag
	valLocation
	numVals
)

// set sets a header field to one value kept in x.vals[i]; key must be in
// canonical form, as Header.Set would write it.
func (x *exchange) set(key string, i int, value string) {
	x.vals[i] = value
	x.out[key] = x.vals[i : i+1 : i+1]
}

// Handle answers one request: the answer's header fields go into header,
// then its status and body to w. A panic anywhere below becomes a 500
// InternalError answer, never a dead server.
func (h *Handler) Handle(w ResponseWriter, header Header, r Request) {
	x := h.begin(w, header, r)
	defer x.guard()
	if path, ok := x.prelude(); ok {
		x.respond(x.decode(x.top(path)))
	}
}

// begin starts the answer to a request.
func (h *Handler) begin(w ResponseWriter, header Header, r Request) *exchange {
	return &exchange{h: h, w: w, out: header, r: r, id: h.newID(), now: h.clock(), version: DefaultVersion, format: format{level: odata.MinimalMetadata}}
}

// guard, deferred, answers a panic with a 500 InternalError.
func (x *exchange) guard() {
	if p := recover(); p != nil {
		x.fail(tableerr.New(tableerr.InternalError))
	}
}

// prelude reads what comes before the operation: the account, the query,
// the format and the version. It answers an unknown account, a query or
// version it cannot read, and a CORS preflight, and then reports false;
// otherwise path is the resource after the account, still escaped.
func (x *exchange) prelude() (path string, ok bool) {
	r := &x.r
	account, path, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	if r.Account != "" {
		account, path = r.Account, strings.TrimPrefix(r.URL.EscapedPath(), "/")
	}
	switch account {
	case x.h.creds.Account:
	case x.h.creds.Account + secondarySuffix:
		x.secondary = true
	default:
		x.fail(tableerr.New(tableerr.ResourceNotFound))
		return "", false
	}
	if r.Account != "" {
		x.base = x.h.base.url(r, "")
	} else {
		x.base = x.h.base.url(r, account)
	}
	q, ok := wire.ParseQuery(r.URL.RawQuery)
	if !ok {
		x.fail(tableerr.New(tableerr.InvalidInput))
		return "", false
	}
	x.query = q
	if x.secondary && path == x.h.creds.Account+"/" && q.Get("restype") == "service" {
		// Path-style, the Python SDK names the account again after the
		// secondary's (/{account}-secondary/{account}/): the service root
		// (F-STATS-SECONDARY).
		path = ""
	}
	x.format = negotiate(r, q)
	if len(q["comp"]) > 1 {
		// Which operation, and which comp the signature covers, would be
		// ambiguous (F-QUERY-COMP-TWICE).
		x.fail(tableerr.New(tableerr.InvalidQueryParameterValue))
		return "", false
	}
	if v, verr := version(r.Header); verr != nil {
		x.fail(verr)
		return "", false
	} else {
		x.version = v
	}
	if r.Method == "OPTIONS" {
		if e := x.h.dia.AbsentPreflight(); e != nil {
			x.fail(e)
		} else {
			x.preflight() // CORS preflights carry no credentials
		}
		return "", false
	}
	x.corsHeaders()
	return path, true
}

// top is what decode reads of the request itself (not a batch part), whose
// resource path is path.
func (x *exchange) top(path string) source {
	return source{r: &x.r, path: path, query: x.query, json: x.format, gate: (*exchange).authorize}
}

// respond answers a decoded request: its error, or its operation's result.
func (x *exchange) respond(d decoded) {
	if d.crash {
		x.crash()
		return
	}
	x.kind = d.op.Kind
	if d.early == nil && x.honoursPrefer(d.op.Kind, x.query) {
		x.applied = x.h.dia.Applied(d.op.Kind, d.prefer)
	}
	switch absent := x.h.dia.Absent(d.op.Kind); {
	case d.early == nil && absent != nil: // an endpoint the implementation lacks
		x.fail(absent)
	case d.early != nil:
		x.fail(d.early)
	case d.denied != nil:
		x.failAuth(d.denied)
	case d.late != nil && d.xml:
		x.xmlFail(d.late)
	case d.late != nil:
		x.fail(d.late)
	default:
		x.execute(d)
	}
}

// baseCache keeps the last account URL built: a client sends request after
// request to the same host, and the text is then built once.
type baseCache struct {
	last atomic.Pointer[baseText]
}

type baseText struct {
	scheme, host, account, text string
}

// url is the account URL the client used, for odata.metadata, odata.id,
// Location and DataServiceId; account is "" for a product-style URL, where
// the host names it.
func (c *baseCache) url(r *Request, account string) string {
	scheme := "http"
	switch {
	case r.URL.Scheme != "": // an absolute request URL, as the browser bridge passes
		scheme = r.URL.Scheme
	case r.TLS:
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	if b := c.last.Load(); b != nil && b.scheme == scheme && b.host == host && b.account == account {
		return b.text
	}
	text := scheme + "://" + host
	if account != "" {
		text += "/" + account
	}
	b := &baseText{scheme: scheme, host: host, account: account, text: text}
	c.last.Store(b)
	return b.text
}

// readBody reads the request body, refusing more than 4 MiB with 413
// RequestBodyTooLarge before reading further.
func (x *exchange) readBody() ([]byte, *tableerr.Error) {
	if x.r.ContentLength > MaxBody || len(x.r.Body) > MaxBody {
		return nil, tableerr.New(tableerr.RequestBodyTooLarge)
	}
	if x.r.Stream == nil {
		return x.r.Body, nil
	}
	// A known length sizes the buffer at once, up to 1 MiB (beyond that it
	// grows as bytes arrive, so a claimed length reserves little); one more
	// byte lets the read that meets the end fit.
	lr := io.LimitedReader{R: x.r.Stream, N: MaxBody + 1}
	b, err := readAll(&lr, min(max(x.r.ContentLength, 511), 1<<20)+1, x.r.ContentLength+1)
	if err != nil {
		return nil, tableerr.New(tableerr.InvalidInput)
	}
	if len(b) > MaxBody {
		return nil, tableerr.New(tableerr.RequestBodyTooLarge)
	}
	return b, nil
}

// readAll is io.ReadAll starting from a buffer of capacity size. A full
// buffer doubles, up to want bytes when that is more than it holds (the
// declared length and the byte that meets the end): a body is read in a
// few steps, and a length claimed but not sent reserves at most what has
// arrived.
func readAll(r *io.LimitedReader, size, want int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			more := len(b)
			if rest := want - int64(len(b)); rest > 0 && rest < int64(more) {
				more = int(rest)
			}
			b = slices.Grow(b, max(more, 1))
		}
	}
}

// headers sets the headers of every response (F-HEADERS), their values in
// x.vals and their keys in canonical form, as Header.Set would write them.
func (x *exchange) headers() Header {
	c := x.h.dia.Common()
	if c.CacheControl != "" {
		x.set("Cache-Control", valCacheControl, c.CacheControl)
	}
	x.set("Server", valServer, c.Server)
	switch {
	case c.Version != "":
		x.set("X-Ms-Version", valVersion, c.Version)
	case !c.NoVersion:
		x.set("X-Ms-Version", valVersion, x.version)
	}
	if c.NoSniff != "" {
		x.set("X-Content-Type-Options", valNoSniff, c.NoSniff)
	}
	x.set("X-Ms-Request-Id", valRequestID, x.id)
	x.set("Date", valDate, x.h.date.Format(x.now))
	if id := x.r.Header["X-Ms-Client-Request-Id"]; len(id) > 0 && id[0] != "" {
		x.set("X-Ms-Client-Request-Id", valClientRequestID, id[0])
	}
	if x.applied != "" {
		x.set("Preference-Applied", valPreferenceApplied, x.applied)
	}
	return x.out
}

// json writes a JSON body at the negotiated level.
func (x *exchange) json(status int, body []byte) {
	x.headers()
	x.send(status, x.h.dia.ContentType(x.format.level), body)
}

// send writes the status and a body of type contentType, once the
// answer's other header fields are set: every answer with a body ends so.
func (x *exchange) send(status int, contentType string, body []byte) {
	x.set("Content-Type", valContentType, contentType)
	x.set("Content-Length", valContentLength, strconv.Itoa(len(body)))
	x.w.WriteHeader(status)
	x.w.Write(body)
}

// noContent writes a 204, typed where the implementation types one.
func (x *exchange) noContent() {
	x.headers()
	if ct := x.h.dia.NoContentType(x.kind, x.format.level); ct != "" {
		x.set("Content-Type", valContentType, ct)
	}
	x.w.WriteHeader(204)
}

// fail writes an error: its status and the odata.error body at the request's
// metadata level (the service puts the code in the body only, F-HEADERS).
func (x *exchange) fail(e *tableerr.Error) {
	dia := x.h.dia
	e = dia.Error(e)
	body, ct := dia.ErrorBody(e, x.id, x.now, x.format.level)
	h := x.headers()
	if !dia.ErrorKeepsPreference() {
		h.Del("Preference-Applied")
	}
	if code := dia.ErrorCode(e); code != "" {
		h.Set("x-ms-error-code", code)
	}
	x.send(e.Status, ct, body)
}

// crash writes the bare 500 of an implementation that throws (see
// dialect.BatchCrashes): no body, no request id, only Date and Server.
func (x *exchange) crash() {
	h := x.headers()
	for k := range h {
		if k != "Date" && k != "Server" {
			delete(h, k)
		}
	}
	x.w.WriteHeader(500)
}

// failAuth writes an authentication failure as the live service does: 403,
// x-ms-error-code, and a JSON error body typed plain application/json.
func (x *exchange) failAuth(e *tableerr.Error) {
	body := odata.AppendError(nil, e, x.id, edm.TicksFromTime(x.now))
	h := x.headers()
	h.Del("Preference-Applied")
	h.Set("x-ms-error-code", string(e.Code))
	x.send(e.Status, "application/json", body)
}

func (x *exchange) ctx(table string) *odata.Context {
	return x.h.dia.Body(&odata.Context{Base: x.base, Account: x.h.creds.Account, Table: table, Level: x.format.level})
}
