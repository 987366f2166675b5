package rest

import (
	"net/url"
	"strings"

	"github.com/tableplay/tableplay/core/dialect"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/xmlbody"
)

// decoded is a request, or one part of a $batch, read into an operation,
// with what its answer needs.
type decoded struct {
	op op.Operation
	// early is an error found before the operation is known (a resource or
	// verb that cannot be read); it is answered before authentication, as
	// the service does.
	early *tableerr.Error
	// denied is the refusal of the gate (authentication or authorization).
	denied *tableerr.Error
	// late is an error of an operation whose kind is known (headers, body,
	// options); it is answered after authorization.
	late *tableerr.Error
	// xml says the operation answers in XML (table ACLs, service
	// properties and stats), errors included.
	xml bool
	// level is a batch part's metadata level; content and prefer come from
	// Prefer (inserts and create table).
	level   odata.Level
	content bool
	prefer  string
	// contentID is a batch part's Content-ID, echoed in its answer.
	contentID string
	// parts are what the answers to a Batch's changeset need of its parts
	// (their operations are op.Operations, once each); failed, when
	// non-nil, names the first part that could not be decoded.
	parts  []partAnswer
	failed *partError
	// single is a Batch in the single-GET form (no changeset), get its
	// request as decoded.
	single bool
	get    *decoded
	// crash says the implementation fails on this $batch with a bare 500;
	// form is its changeset answer's layout.
	crash bool
	form  dialect.Batch
	// size is a Batch's body length, which sizes its answer's buffer.
	size int
}

// partAnswer is what a changeset part's answer needs besides the stored
// entity: a small record, so that a hundred parts are not held as a
// hundred full decoded requests beside their operations.
type partAnswer struct {
	kind    op.Kind
	table   string
	level   odata.Level
	content bool
	prefer  string
	// contentID is the part's Content-ID, echoed in its answer.
	contentID string
	// queried says the part's URL has a query, and dsv is its
	// DataServiceVersion, when the answer's layout echoes them.
	queried bool
	dsv     string
}

// answer is what the part's answer needs of d.
func (d *decoded) answer() partAnswer {
	return partAnswer{kind: d.op.Kind, table: d.op.Table, level: d.level, content: d.content, prefer: d.prefer, contentID: d.contentID}
}

// partError is a batch part that failed, by index.
type partError struct {
	index int
	err   *tableerr.Error
}

// source is what decode reads: a top-level request or a batch part.
type source struct {
	r     *Request
	path  string     // the resource after the account, still escaped
	query url.Values // the query string as the handler splits it
	// partBody is a batch part's body; a top-level request's is read from
	// the connection when the operation needs it.
	partBody []byte
	// part is set for a $batch part: only entity reads and writes, no
	// format requirement, If-Match required on delete.
	part bool
	// json is the top-level request's negotiated format.
	json format
	// contentID is a batch part's Content-ID.
	contentID string
	// gate authorizes the operation once its kind, table and keys are
	// known, before its body is read; an insert, whose keys are in its
	// body, passes it again once they are known. It is a method
	// expression, which unlike a method value costs no allocation.
	gate func(*exchange, op.Operation) *tableerr.Error
}

// decode reads what a request or a batch part asks: the one place where a
// verb, a resource, headers and a body become an op.Operation.
func (x *exchange) decode(s source) decoded {
	h := x.decodeHead(s)
	if h.done {
		return h.d
	}
	return x.decodeOp(s, h)
}

// head is what decode reads before the operation's own fields (body,
// If-Match, options): the kind of operation and its target, the answer's
// format and preference, and the gate's verdict on them. It is a function
// of the verb, the resource, the query and the headers alone, and of no
// framing field (Content-Length), so a batch part that repeats those of the
// part before reuses its head.
type head struct {
	d    decoded
	res  resource
	done bool // d is decode's answer already: an error, or a part's single GET
}

// decodeHead is the first half of decode.
func (x *exchange) decodeHead(s source) head {
	d := decoded{level: odata.MinimalMetadata, content: true}
	if s.part {
		if f := negotiate(s.r, s.query); f.json {
			d.level = f.level
		}
		d.contentID = s.contentID
	}
	if _, ok := s.r.Header["Prefer"]; ok {
		d.content, d.prefer = preference(s.r.Header)
	}
	res, err := parseResource(s.path)
	if err != nil {
		d.early = err
		return head{d: d, done: true}
	}
	method, err := effectiveMethod(s.r)
	if err != nil {
		d.early = err
		return head{d: d, done: true}
	}
	d.op = op.Operation{Kind: kindOf(res, method, s.query), Table: res.table, PartitionKey: res.pk, RowKey: res.rk}
	o := &d.op
	if _, present := s.r.Header["If-Match"]; !present {
		if u := o.Kind.Upsert(); u != 0 {
			o.Kind = u // an update without If-Match is its upsert
		}
	}
	if s.part && !o.Kind.InBatch() {
		d.early = tableerr.New(tableerr.InvalidInput) // queries and table operations have no place in a batch
		return head{d: d, done: true}
	}
	if d.denied = s.gate(x, *o); d.denied != nil {
		return head{d: d, done: true}
	}
	if res.kind == resEntities || res.kind == resEntity { // a bad name is refused as create-table refuses it, not 404
		if d.early = x.h.dia.CheckRequestTableName(res.table); d.early != nil {
			return head{d: d, done: true}
		}
	}
	// The single-GET form answers the entity whole.
	return head{d: d, res: res, done: s.part && batchRead(o.Kind)}
}

// decodeOp is the second half of decode: the fields of the operation h
// names.
func (x *exchange) decodeOp(s source, h head) decoded {
	d, res := h.d, h.res
	o := &d.op
	fail := func(err *tableerr.Error) decoded { d.late = err; return d }
	readBody := func() ([]byte, *tableerr.Error) {
		if s.part {
			return s.partBody, nil
		}
		return x.readBody()
	}
	needJSON := func() *tableerr.Error {
		if s.part {
			return nil
		}
		return s.json.requireJSON()
	}
	k := o.Kind
	if k.Answer() == op.NoAnswer { // no such operation
		if res.kind == resService || isACL(res, s.query) {
			d.xml = true
			if res.kind == resService && resourceOf(res, s.query) == op.NoResource { // not ?restype=service&comp=properties|stats
				return fail(tableerr.New(tableerr.InvalidQueryParameterValue))
			}
		}
		if s.part {
			return d
		}
		return fail(tableerr.New(tableerr.MethodNotAllowed))
	}
	d.xml = k.XML()
	if cond := k.Condition(); cond != op.Unconditional {
		m, err := ifMatch(s.r.Header)
		if err != nil {
			return fail(err)
		}
		// A batch part without If-Match that has no upsert form is refused.
		if s.part && cond == op.Conditional && k.Upsert() == 0 && m.Kind == store.MatchNone {
			return fail(tableerr.New(tableerr.MissingRequiredHeader))
		}
		o.IfMatch = x.h.dia.IfMatch(k, s.part, m)
	}
	switch always, byPrefer := jsonAnswer(k.Answer()); {
	case always, byPrefer && d.prefer == "return-content" && x.honoursPrefer(k, s.query):
		// The answer is JSON, the entity by Prefer included (F-PREFER).
		if err := needJSON(); err != nil {
			return fail(err)
		}
	}
	switch k.Params() {
	case op.QueryParams:
		o.Query = options(s.query)
		o.Query.Top = x.h.dia.Top(o.Query.Top, s.query.Get("$top"))
	case op.SelectParams:
		o.Query.Select = optional(s.query, "$select")
	}
	shape := k.Body()
	if shape == op.NoBody {
		return d
	}
	body, err := readBody()
	if err != nil {
		return fail(err)
	}
	switch shape {
	case op.TableNameBody:
		if o.Table, err = odata.DecodeTableName(body, x.h.dia.TableNames()); err != nil {
			return fail(err)
		}
	case op.EntityBody:
		if o.Entity, err = x.decodeEntity(body, bodyText(s, body)); err != nil {
			return fail(err)
		}
		d.denied = s.gate(x, *o) // now with its keys
	case op.UpdateBody:
		if o.Entity, err = odata.DecodeUpdateText(body, bodyText(s, body), res.pk, res.rk); err != nil {
			return fail(err)
		}
	case op.BatchBody:
		var text string
		if s.r.Stream == nil {
			text = s.r.Text // the caller's own string of body
		}
		if x.h.dia.BatchTooLarge(len(body)) {
			return fail(tableerr.New(tableerr.RequestBodyTooLarge))
		}
		d.form = x.h.dia.BatchForm(body)
		ok, crash := x.decodeBatch(&d, s.r.Header.Get("Content-Type"), body, text)
		if d.crash = x.h.dia.BatchCrashes(crash, body); d.crash {
			return d
		}
		if !ok {
			return fail(tableerr.New(tableerr.InvalidInput))
		}
		if d.single {
			d.form = dialect.Batch{}
		}
		d.size = len(body)
	case op.ACLBody:
		if o.ACL, err = xmlbody.ParseACL(body); err != nil {
			return fail(err)
		}
	case op.PropertiesBody:
		o.Body = body
	default: // a body this layer has no decoder for
		return fail(tableerr.New(tableerr.InternalError))
	}
	return d
}

// decodeBatch reads a $batch envelope and decodes its parts in order,
// each as soon as it is read (its header block is read once), up to the
// first that cannot be decoded; the parts after it are only read as the
// envelope's. ok is false when the envelope is malformed anywhere, which
// wins over any part's error: what was decoded is then dropped. crash
// says the envelope is malformed, a part's URL is relative, or the
// changeset is empty (see dialect.BatchCrashes).
func (x *exchange) decodeBatch(d *decoded, contentType string, body []byte, text string) (ok, crash bool) {
	x.parts = &partsState{}
	defer func() { x.parts = nil }()
	get, err := parseBatchText(contentType, body, text, func(p *batchPart, parts int) {
		x.parts.relative = x.parts.relative || p.req.URL.Host == ""
		x.decodeChangesetPart(d, p, parts)
	})
	if err != nil {
		d.parts, d.op.Operations, d.failed = nil, nil, nil
		return false, true
	}
	if get != nil {
		g := x.decode(x.partSource(get))
		d.single, d.get = true, &g
		return true, get.req.URL.Host == ""
	}
	if len(d.op.Operations) > 0 {
		d.op.Table = d.op.Operations[0].Table
	}
	return true, x.parts.relative || len(d.parts) == 0
}

// decodeChangesetPart decodes a changeset's next part into d, unless a part
// before it failed; parts is how many the changeset is thought to hold.
func (x *exchange) decodeChangesetPart(d *decoded, p *batchPart, parts int) {
	if d.failed != nil {
		return
	}
	if d.parts == nil {
		// Sized once: growing by appends would copy a 100-part batch's
		// several times over. A changeset of more than the most a batch
		// may hold fails, and is not worth the space.
		n := min(parts, store.MaxBatch+1)
		d.parts = make([]partAnswer, 0, n)
		d.op.Operations = make([]op.Operation, 0, n)
	}
	i := len(d.parts)
	ps, src := x.parts, x.partSource(p)
	if !p.repeats || !ps.haveHead {
		ps.head, ps.haveHead = x.decodeHead(src), true
	}
	pd := ps.head.d
	if !ps.head.done {
		pd = x.decodeOp(src, ps.head)
	}
	if batchRead(pd.op.Kind) && pd.early == nil {
		pd.early = tableerr.New(tableerr.InvalidInput) // a changeset holds writes only
	}
	a := pd.answer()
	if d.form.Echoes() {
		a.queried, a.dsv = p.req.URL.RawQuery != "", p.req.Header.Get("DataServiceVersion")
	}
	d.parts = append(d.parts, a)
	if err := firstErr(pd.early, pd.denied, pd.late); err != nil {
		d.failed = &partError{index: i, err: err}
		return
	}
	d.op.Operations = append(d.op.Operations, pd.op)
}

// partsState is what the parts of a $batch share while they are decoded.
type partsState struct {
	// relative is set once a part's URL has no host.
	relative bool
	// query is the last part's query as read, by its text: the parts of a
	// batch mostly carry the same one, read once (the maps are only read).
	queryText string
	query     url.Values
	// entities decodes the parts' entity bodies, reusing its space.
	entities odata.Decoder
	// path is the resource path of the last part's URL, url.
	url  *url.URL
	path string
	// head is the last part's head (haveHead once there is one): a part
	// that repeats the method, target and header block of the part before
	// (but for its framing) has the same.
	head     head
	haveHead bool
}

// decodeEntity decodes an insert's body (text: the same as a string, or
// ""), with the batch's Decoder for a part.
func (x *exchange) decodeEntity(body []byte, text string) (*entity.Entity, *tableerr.Error) {
	if x.parts != nil {
		return x.parts.entities.EntityText(body, text)
	}
	return odata.DecodeEntityText(body, text)
}

// bodyText is the body of the request or batch part s reads as text, when
// it is held so (Request.Text: the transport's, or a part's cut from the
// envelope's text), or "".
func bodyText(s source, body []byte) string {
	if len(s.r.Text) != len(body) {
		return ""
	}
	return s.r.Text
}

// partSource is what decode reads of a batch part: its URL may be absolute
// or relative, with or without the account segment.
func (x *exchange) partSource(p *batchPart) source {
	ps := x.parts
	if p.req.URL != ps.url { // the parts of a batch mostly share one URL (partScratch)
		path := strings.TrimPrefix(p.req.URL.EscapedPath(), "/")
		if acct, rest, ok := strings.Cut(path, "/"); ok && acct == x.h.creds.Account {
			path = rest
		}
		ps.url, ps.path = p.req.URL, path
	}
	path := ps.path
	var q url.Values // read only: nil reads as empty, and most parts have no query
	if raw := p.req.URL.RawQuery; raw != "" {
		if ps.query == nil || raw != ps.queryText {
			ps.queryText, ps.query = raw, p.req.URL.Query()
		}
		q = ps.query
	}
	return source{r: &p.req, path: path, query: q, part: true, contentID: p.contentID, gate: (*exchange).allow,
		partBody: p.req.Body}
}

// kindOf names the operation a verb asks of a resource (0 when the
// resource does not answer that verb): op.Route reads the table of kinds.
func kindOf(res resource, method string, q url.Values) op.Kind {
	return op.Route(resourceOf(res, q), op.ParseMethod(method))
}

// resourceOf is the op.Resource a parsed resource segment and its query
// address.
func resourceOf(res resource, q url.Values) op.Resource {
	switch res.kind {
	case resService:
		if q.Get("restype") != "service" {
			return op.NoResource
		}
		switch q.Get("comp") {
		case "properties":
			return op.ServiceProperties
		case "stats":
			return op.ServiceStats
		}
	case resTables:
		return op.TableList
	case resTable:
		return op.OneTable
	case resBatch:
		return op.BatchResource
	case resEntities:
		if isACL(res, q) {
			return op.TableACL
		}
		return op.Entities
	case resEntity:
		return op.OneEntity
	}
	return op.NoResource
}

// batchRead reports whether a batch part is the read a $batch may hold
// instead of a changeset (a single Get): in a batch, but no store write.
func batchRead(k op.Kind) bool {
	_, writes := k.Write()
	return k.InBatch() && !writes
}

// isACL reports whether a request addresses a table's ACL (t?comp=acl).
func isACL(res resource, q url.Values) bool {
	return res.kind == resEntities && q.Get("comp") == "acl"
}

// options reads the query options of a query or a table listing. A $top
// that is not a count from 0 to 1000 is kept out of range, so that
// op.Execute refuses it after $filter, in the service's order.
func options(q url.Values) op.Options {
	o := op.Options{Filter: optional(q, "$filter"), Select: optional(q, "$select"),
		NextPartitionKey: q.Get("NextPartitionKey"), NextRowKey: q.Get("NextRowKey"), NextTableName: q.Get("NextTableName")}
	if t, ok := q["$top"]; ok {
		n, err := filter.ParseTop(t[0])
		switch {
		case err != nil:
			n = filter.MaxTop + 1
		case n == 0:
			n = store.NoEntities // an empty page (F-TOP-ZERO)
		}
		o.Top = n
	}
	return o
}

// optional returns a query option's first value, nil when absent.
func optional(q url.Values, name string) *string {
	if v, ok := q[name]; ok {
		return &v[0]
	}
	return nil
}

// jsonAnswer says whether an answer shape carries JSON always (so a
// top-level request must accept JSON before its body is read), or only when
// Prefer asks for the entity back.
func jsonAnswer(a op.Answer) (always, byPrefer bool) {
	switch a {
	case op.TableCreated, op.TableRead, op.TablePage, op.EntityPage, op.EntityRead, op.EntityCreated:
		return true, false
	case op.EntityWritten:
		return false, true
	}
	return false, false
}

func firstErr(errs ...*tableerr.Error) *tableerr.Error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
