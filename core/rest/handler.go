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

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
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
	// prof is the implementation answered as: the store's, so the account
	// and its HTTP face never disagree.
	prof   profile.Profile
	creds  Credentials
	clock  func() time.Time
	newID  func() string
	date   *dateCache
	bodies *bodyPool
	base   *baseCache
}

// New returns the handler for an account.
func New(o Options) *Handler {
	id := o.RequestID
	if id == nil {
		id = randomID
	}
	return &Handler{store: o.Store, prof: o.Store.Profile(), creds: o.Credentials, clock: o.Clock, newID: id, date: &dateCache{}, bodies: &bodyPool{}, base: &baseCache{}}
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

// lacks reports whether the profile's implementation has no endpoint for
// an operation of kind k.
func (x *exchange) lacks(k op.Kind) bool {
	l := x.h.prof.Lacks
	switch k {
	case op.GetACL, op.SetACL:
		return l.Has(profile.TableACL)
	case op.GetProperties, op.SetProperties:
		return l.Has(profile.ServiceProperties)
	case op.GetStats:
		return l.Has(profile.ServiceStats)
	}
	return false
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
	q, ok := parseQuery(r.URL.RawQuery)
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
	if r.Method == "OPTIONS" && x.h.prof.Lacks.Has(profile.CORS) {
		x.fail(&tableerr.Error{Code: tableerr.Code(x.h.prof.Absent.Code), Status: x.h.prof.Absent.Status, Message: tableerr.Code(x.h.prof.Absent.Code).Message()}) // F-COSMOS-NO-CORS
		return "", false
	}
	if r.Method == "OPTIONS" {
		x.preflight() // CORS preflights carry no credentials
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
		x.applied = d.prefer
		if k := d.op.Kind; x.applied == "" && x.h.prof.Emulator.AlwaysPreference && (k == op.CreateTable || k == op.Insert) { // F-AZURITE-PREFER-ECHO
			x.applied = "return-content"
		}
	}
	switch {
	case d.early == nil && x.lacks(d.op.Kind):
		// An endpoint this profile's implementation does not serve
		// (F-COSMOS-NO-ACL, F-COSMOS-NO-SERVICE).
		x.fail(&tableerr.Error{Code: tableerr.Code(x.h.prof.Absent.Code), Status: x.h.prof.Absent.Status, Message: tableerr.Code(x.h.prof.Absent.Code).Message()})
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

// parseQuery splits a query string on '&' only: a literal ';' belongs to the
// value ($format=application/json;odata=nometadata), unlike in
// url.ParseQuery. It is the one reading of a request's query: routing,
// negotiation, Shared Key's canonical resource and shared access
// signatures all take their values from its result.
func parseQuery(raw string) (url.Values, bool) {
	if raw == "" {
		return nil, true // read-only from here on: a nil map reads as empty
	}
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		q[key] = append(q[key], val)
	}
	return q, true
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
	em := &x.h.prof.Emulator
	switch {
	case x.h.prof.Headers == profile.CosmosHeaders:
		// The Cosmos gateway writes neither Cache-Control nor
		// X-Content-Type-Options nor x-ms-version (F-COSMOS-HEADERS).
		x.set("Server", valServer, "Microsoft-HTTPAPI/2.0")
	case em.Server != "":
		// Azurite names itself, answers its own version whatever was
		// asked, and writes neither Cache-Control nor
		// X-Content-Type-Options (F-AZURITE-SERVER, F-AZURITE-VERSION,
		// F-AZURITE-BARE-HEADERS).
		x.set("Server", valServer, em.Server)
		x.set("X-Ms-Version", valVersion, em.AnswerVersion)
	default:
		x.set("Cache-Control", valCacheControl, "no-cache")
		x.set("Server", valServer, "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0")
		x.set("X-Ms-Version", valVersion, x.version)
		x.set("X-Content-Type-Options", valNoSniff, "nosniff")
	}
	x.set("X-Ms-Request-Id", valRequestID, x.id)
	x.set("Date", valDate, x.h.date.format(x.now))
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
	x.set("Content-Type", valContentType, x.contentType(x.format.level))
	x.set("Content-Length", valContentLength, strconv.Itoa(len(body)))
	x.w.WriteHeader(status)
	x.w.Write(body)
}

// contentType is the Content-Type of a JSON body at level l: Storage's
// with its streaming and charset parameters, or the Cosmos gateway's and
// Azurite's bare one (F-COSMOS-HEADERS, F-AZURITE-CONTENT-TYPE).
func (x *exchange) contentType(l odata.Level) string {
	if x.h.prof.Headers == profile.CosmosHeaders || x.h.prof.Emulator.PlainContentType { // F-AZURITE-CONTENT-TYPE
		return "application/json;odata=" + l.String()
	}
	return l.ContentType()
}

// noContent writes a 204; the Cosmos gateway types even that
// (F-COSMOS-HEADERS).
func (x *exchange) noContent() {
	x.headers()
	if x.h.prof.Headers == profile.CosmosHeaders {
		x.set("Content-Type", valContentType, "application/json")
	} else if k := x.kind; x.h.prof.Emulator.PlainContentType && (k == op.CreateTable || k == op.DeleteTable || k == op.Insert) { // F-AZURITE-CONTENT-TYPE
		x.set("Content-Type", valContentType, x.contentType(x.format.level))
	}
	x.w.WriteHeader(204)
}

// fail writes an error: its status and the odata.error body at the request's
// metadata level (the service puts the code in the body only, F-HEADERS).
func (x *exchange) fail(e *tableerr.Error) {
	if x.h.prof.Errors == profile.CosmosErrors {
		// Full metadata whatever was asked (F-COSMOS-ERRORS).
		body := odata.AppendCosmosError(nil, e, x.id)
		h := x.headers()
		h.Set("Content-Type", x.contentType(odata.FullMetadata))
		h.Set("Content-Length", strconv.Itoa(len(body)))
		x.w.WriteHeader(e.Status)
		x.w.Write(body)
		return
	}
	em := &x.h.prof.Emulator
	e = x.emulatorError(e)
	body := odata.AppendErrorAs(nil, e, x.id, edm.TicksFromTime(x.now), em.ErrorTimeMillis)
	h := x.headers()
	if em.AlwaysPreference { // F-AZURITE-PREFER-ECHO: never on an error
		h.Del("Preference-Applied")
	}
	if em.ErrorCodeHeader && e.Code != "" { // F-AZURITE-ERROR-CODE-HEADER
		h.Set("x-ms-error-code", string(e.Code))
	}
	h.Set("Content-Type", x.format.level.ContentType())
	h.Set("Content-Length", strconv.Itoa(len(body)))
	x.w.WriteHeader(e.Status)
	x.w.Write(body)
}

// crash writes the bare 500 Azurite answers when it throws
// (F-AZURITE-BATCH-500): no body, no request id, only Date and Server.
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
	h.Set("Content-Type", "application/json")
	h.Set("x-ms-error-code", string(e.Code))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	x.w.WriteHeader(e.Status)
	x.w.Write(body)
}

func (x *exchange) ctx(table string) *odata.Context {
	c := &odata.Context{Base: x.base, Account: x.h.creds.Account, Table: table, Level: x.format.level, Style: x.h.prof.Bodies}
	if em := &x.h.prof.Emulator; em.BodyForms() {
		c.Emulator = em
	}
	return c
}
