package lesson

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/play"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// Session runs one lesson at a time against an account: the store the page
// (or a test) owns, the REST handler serving it, and the playground API that
// builds requests exactly as the page's operations do. It remembers what the
// steps so far left behind: the ETag each client holds and the last query's
// continuation.
type Session struct {
	// API builds each step's request as the page's operations do.
	API *play.API
	// Handler serves the requests, as the service would.
	Handler *rest.Handler
	// Store is the account's store; Start restores it to the lesson's start.
	Store *store.Store

	lesson   *Lesson
	held     map[string]string
	timeline []Event
	// pos counts the steps run in order since Start; changed is set when
	// the account changed by anything but the session itself (the person
	// trying things), and running while the session itself writes.
	pos     int
	changed bool
	running bool
	next    [2]string
	starts  map[string][]byte // expanded start accounts by lesson id
}

// Result is one step's run: what was sent and answered (or the report of a
// check), the outcome measured in the shape of an expectation, how it
// differs from the lesson's expectation, and the state a two-client view
// shows.
type Result struct {
	// Lesson is the lesson's id.
	Lesson string `json:"lesson"`
	Step   int    `json:"step"` // 0-based
	// Client is the client that sent the step, in two-client lessons.
	Client string `json:"client,omitempty"`
	// Profile is the profile that answered the step when it was not the
	// account's own (Step.Profile).
	Profile string `json:"profile,omitempty"`
	// Request is what was sent; nil for steps that only check.
	Request *play.Request `json:"request,omitempty"`
	// Query is the request's query decoded, in URL order ($filter, $select,
	// $top and the continuation as text; a SAS's fields left out), so the
	// page never shows a step's query URL-encoded.
	Query [][2]string `json:"query,omitempty"`
	// Response is the handler's answer; nil for steps that only check.
	Response *rest.Reply `json:"response,omitempty"`
	// Report is the check's report for a draft, table name or filter step.
	Report json.RawMessage `json:"report,omitempty"`
	// Outcome is what happened, measured in the shape of an expectation.
	Outcome Expect `json:"outcome"`
	// Expect is what the lesson says should happen.
	Expect Expect `json:"expect"`
	// Diffs lists how Outcome differs from Expect (or the error), one line each.
	Diffs []string `json:"diffs"`
	// Explanation is the step's after-text with the figures of this run in
	// it; the page shows it once the step has run.
	Explanation string `json:"explanation"`
	// OK says the step went as the lesson says (the author's check; the
	// page does not show it to learners).
	OK bool `json:"ok"`
	// Held maps each client to the ETag it holds after the step.
	Held map[string]string `json:"held,omitempty"`
	// Before is the entity a single-entity operation names, as stored before
	// it ran; nil for other steps.
	Before *EntityState `json:"before,omitempty"`
	// After is that entity as stored afterwards.
	After *EntityState `json:"after,omitempty"`
	// Timeline lists every operation since the start, this one included.
	Timeline []Event `json:"timeline"`
	// Error says why the step could not run (or the steps before it failed);
	// empty when it ran.
	Error string `json:"error,omitempty"`
}

// Event is one operation on a lesson's timeline: which step sent it, from
// which client, what it asked and what came back.
type Event struct {
	// Step is the index of the step that sent it (0-based).
	Step int `json:"step"`
	// Client is the client that sent it, in two-client lessons.
	Client string `json:"client,omitempty"`
	// Method is the HTTP method.
	Method string `json:"method"`
	Target string `json:"target"` // the URL's path and query
	// Status is the answer's HTTP status.
	Status int `json:"status"`
	// ETag is the answer's ETag header, if any.
	ETag string `json:"etag,omitempty"`
}

// EntityState is the entity a write acts on, as stored: absent, or its ETag
// and properties.
type EntityState struct {
	// Absent says no such entity is stored.
	Absent bool `json:"absent"`
	// ETag is the stored entity's ETag.
	ETag string `json:"etag,omitempty"`
	// Properties are its custom properties, in stored order.
	Properties []play.Row `json:"properties,omitempty"`
}

// Start replaces the account with the lesson's start account and forgets
// what earlier steps left behind.
func (s *Session) Start(l *Lesson) error {
	if s.starts == nil {
		s.starts = map[string][]byte{}
	}
	doc, ok := s.starts[l.ID]
	if !ok {
		var err error
		if doc, err = l.Account(); err != nil {
			return err
		}
		s.starts[l.ID] = doc
	}
	s.running = true
	err := s.Store.Restore(doc)
	s.running = false
	if err != nil {
		return fmt.Errorf("%s: start account: %v", l.ID, err)
	}
	s.lesson, s.held, s.next, s.timeline = l, map[string]string{}, [2]string{}, nil
	s.pos, s.changed = 0, false
	return nil
}

// Resume starts l on the account as it stands, without restoring l's start
// account: for a caller that knows the account already is that start (one
// restored start state serving many checks that only read it).
func (s *Session) Resume(l *Lesson) {
	s.lesson, s.held, s.next, s.timeline = l, map[string]string{}, [2]string{}, nil
	s.pos, s.changed = 0, false
}

// Changed tells the session that the account changed. Changes the session
// makes itself are ignored; any other means the next Prepare starts over.
// (It only sets a flag, so a store's OnChange may call it.)
func (s *Session) Changed() {
	if !s.running {
		s.changed = true
	}
}

// Prepare starts the lesson and runs its first n steps, leaving the account
// as it stands before step n (0-based); a step that did not go as the lesson
// says is an error. When the session already stands there — the steps before
// n just ran in order and nothing else touched the account — nothing is
// replayed.
func (s *Session) Prepare(l *Lesson, n int) error {
	if n < 0 || n > len(l.Steps) {
		return fmt.Errorf("%s has no step %d", l.ID, n+1)
	}
	if s.lesson == l && s.pos == n && !s.changed {
		return nil
	}
	if err := s.Start(l); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if r := s.Run(i); !r.OK {
			return fmt.Errorf("%s step %d: %s%s", l.ID, i+1, r.Error, strings.Join(r.Diffs, "; "))
		}
	}
	return nil
}

// Run runs step i (0-based) of the started lesson and compares its outcome
// with the expectation.
func (s *Session) Run(i int) Result {
	l := s.lesson
	if l == nil || i < 0 || i >= len(l.Steps) {
		return Result{Step: i, Error: "no such step"}
	}
	st := l.Steps[i]
	r := Result{Lesson: l.ID, Step: i, Client: st.Client, Expect: st.Expect}
	s.running = true
	defer func() { s.running = false }()
	if i == s.pos {
		s.pos++
	} else {
		s.pos = -1 // out of order: the next Prepare starts over
	}
	switch {
	case st.Draft != nil:
		b, _ := json.Marshal(st.Draft)
		r.Report = s.API.ValidateEntity(b)
		r.Outcome = checkOutcome(r.Report)
		g := gjson.ParseBytes(r.Report)
		size, count := int(g.Get("size").Int()), int(g.Get("count").Int())
		r.Outcome.Size, r.Outcome.Count = &size, &count
	case st.TableName != nil:
		r.Report = s.API.ValidateTableName(*st.TableName)
		r.Outcome = checkOutcome(r.Report)
	case st.Filter != nil:
		r.Report = s.API.ExplainFilter(*st.Filter, "")
		r.Outcome = checkOutcome(r.Report)
		r.Outcome.Canonical = gjson.GetBytes(r.Report, "canonical").String()
	default:
		s.operation(st, &r)
	}
	if r.Error == "" {
		r.Diffs = Compare(st.Expect, r.Outcome, bodyOf(r.Response))
	} else {
		r.Diffs = []string{r.Error}
	}
	r.OK = len(r.Diffs) == 0
	if r.Error == "" {
		r.Explanation = Explanation(s.API.Locale, st, r.Outcome)
	}
	r.Held = copyMap(s.held)
	r.Timeline = append([]Event{}, s.timeline...)
	return r
}

// checkOutcome reads a validation report (table name, entity or filter):
// valid, the broken rules' ids and the service's answer (the first card).
func checkOutcome(report []byte) Expect {
	g := gjson.ParseBytes(report)
	valid := g.Get("valid").Bool()
	out := Expect{Valid: &valid}
	first := g.Get("violations.0")
	if !first.Exists() {
		first = g.Get("error")
	}
	out.Status, out.Code = int(first.Get("status").Int()), first.Get("code").String()
	for _, c := range g.Get("violations").Array() {
		out.Rules = append(out.Rules, c.Get("rule.id").String())
	}
	if id := g.Get("error.rule.id"); id.Exists() {
		out.Rules = append(out.Rules, id.String())
	}
	return out
}

// operation sends the step's operation through the handler and measures the
// outcome.
func (s *Session) operation(st Step, r *Result) {
	op := *st.Operation
	if st.IfMatchFrom != "" {
		op.IfMatch = s.held[st.IfMatchFrom]
		if op.IfMatch == "" {
			r.Error = "client " + st.IfMatchFrom + " holds no ETag yet"
			return
		}
	}
	if st.Continue {
		if s.next[0] == "" {
			r.Error = "no continuation from an earlier query"
			return
		}
		op.NextPartitionKey, op.NextRowKey = s.next[0], s.next[1]
	}
	api, handler, st2, msg := s.target(st.Profile)
	if msg != "" {
		r.Error = msg
		return
	}
	r.Profile = st.Profile
	req, msg := api.Build(op)
	if msg != "" {
		r.Error = msg
		return
	}
	if st.Body != nil {
		req.Body = *st.Body
		for i, kv := range req.Headers {
			if kv[0] == "Content-Length" {
				req.Headers[i][1] = strconv.Itoa(len(req.Body))
			}
		}
	}
	if st.SAS != nil {
		if msg := s.signSAS(&req, op.Table, *st.SAS); msg != "" {
			r.Error = msg
			return
		}
	}
	pk, rk, keyed := keysOf(op)
	if keyed {
		r.Before = state(st2, op.Table, pk, rk)
	}
	reply := handler.Serve(rest.Call{Method: req.Method, URL: req.URL, Headers: req.Headers, Body: req.Body})
	r.Request, r.Response = &req, &reply
	target := req.URL
	if u, err := url.Parse(req.URL); err == nil {
		target = u.RequestURI()
		r.Query = decodedQuery(u.RawQuery)
	}
	s.timeline = append(s.timeline, Event{Step: r.Step, Client: st.Client, Method: req.Method, Target: target, Status: reply.Status, ETag: header(reply, "ETag")})
	out := Expect{Status: reply.Status}
	body := gjson.Parse(reply.Body)
	out.Code = body.Get("odata\\.error.code").String()
	if etag := header(reply, "ETag"); etag != "" && st.Client != "" {
		s.held[st.Client] = etag
	}
	switch op.Kind {
	case "batch":
		ans, err := play.ReadBatchResponse(header(reply, "Content-Type"), reply.Body)
		if err == nil {
			fi := ans.FailedIndex
			out.FailedIndex = &fi
			if fi >= 0 && fi < len(ans.Parts) {
				out.Code = ans.Parts[fi].Code
			} else if len(ans.Parts) == 1 && !ans.OK {
				out.Code = ans.Parts[0].Code
			}
		}
	case "query":
		rowKeys := []string{}
		for _, e := range body.Get("value").Array() {
			rowKeys = append(rowKeys, e.Get("RowKey").String())
		}
		n := len(rowKeys)
		more := header(reply, "x-ms-continuation-NextPartitionKey") != ""
		out.RowKeys, out.Returned, out.More = rowKeys, &n, &more
		s.next = [2]string{header(reply, "x-ms-continuation-NextPartitionKey"), header(reply, "x-ms-continuation-NextRowKey")}
		if st.SAS == nil && reply.Status == 200 {
			b, _ := json.Marshal(op)
			// Stats the engine cannot give (a $top only a profile takes) stay unsaid.
			if g := gjson.GetBytes(api.QueryStats(b), "scanned"); g.Exists() {
				scanned := int(g.Int())
				out.Scanned = &scanned
			}
		}
	}
	ann := annotated(body)
	out.Annotated = &ann
	if keyed {
		r.After = state(st2, op.Table, pk, rk)
		after := EntityAfter{Absent: r.After.Absent, Properties: r.After.Properties}
		out.Entity = &after
	}
	r.Outcome = out
}

// decodedQuery lists a query string's parameters decoded, in order: the
// $-options and the continuation, not a SAS's signature fields.
func decodedQuery(raw string) [][2]string {
	var out [][2]string
	for _, kv := range strings.Split(raw, "&") {
		k, v, _ := strings.Cut(kv, "=")
		k, kerr := url.QueryUnescape(k)
		v, verr := url.QueryUnescape(v)
		if kerr != nil || verr != nil || k == "" {
			continue
		}
		if strings.HasPrefix(k, "$") || strings.HasPrefix(k, "Next") {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// signSAS replaces the request's Shared Key signature with a table SAS
// signed with the account key, valid from a minute ago for an hour.
func (s *Session) signSAS(req *play.Request, table string, g SAS) string {
	now := s.API.Clock().UTC()
	sas := rest.SAS{Version: "2019-02-02", Table: table, Permissions: g.Permissions, StartPK: g.StartPK, StartRK: g.StartRK,
		EndPK: g.EndPK, EndRK: g.EndRK, Protocol: "https,http",
		Start: now.Add(-time.Minute).Format("2006-01-02T15:04:05Z"), Expiry: now.Add(time.Hour).Format("2006-01-02T15:04:05Z")}
	sas.Signature = s.API.Creds.SignSAS(sas)
	u, err := url.Parse(req.URL)
	if err != nil {
		return "bad request URL"
	}
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += sas.Encode()
	req.URL = u.String()
	kept := req.Headers[:0:0]
	for _, kv := range req.Headers {
		if kv[0] != "Authorization" {
			kept = append(kept, kv)
		}
	}
	req.Headers = kept
	return ""
}

// keysOf names the entity a single-entity operation acts on.
func keysOf(op play.Operation) (pk, rk string, ok bool) {
	if op.Kind == "batch" || op.Kind == "query" || op.Entity == nil || op.Entity.PartitionKey == nil || op.Entity.RowKey == nil {
		return "", "", false
	}
	return *op.Entity.PartitionKey, *op.Entity.RowKey, true
}

// target is where a step's operation goes: the account, or for a step
// with a profile a copy of the account as it stands answering as that
// profile, with its own handler; the copy is the step's alone.
func (s *Session) target(name string) (*play.API, *rest.Handler, *store.Store, string) {
	if name == "" {
		return s.API, s.Handler, s.Store, ""
	}
	p, ok := profile.ByName(name)
	if !ok {
		return nil, nil, nil, "no profile " + strconv.Quote(name)
	}
	st := store.New(store.Options{Clock: s.API.Clock, Profile: p})
	if err := st.Load(s.Store.Snapshot()); err != nil {
		return nil, nil, nil, "the account cannot be copied as " + name + ": " + err.Error()
	}
	h := rest.New(rest.Options{Store: st, Credentials: s.API.Creds, Clock: s.API.Clock})
	api := *s.API
	api.Store, api.Handler = st, h
	return &api, h, st, ""
}

// state reads an entity as stored.
func state(from *store.Store, table, pk, rk string) *EntityState {
	e, err := from.Get(table, pk, rk)
	if err != nil {
		return &EntityState{Absent: true}
	}
	st := &EntityState{ETag: odata.ETag(e.Timestamp), Properties: []play.Row{}}
	for _, p := range e.Properties {
		st.Properties = append(st.Properties, play.Row{Name: p.Name, Type: p.Value.Type().String(), Text: p.Value.Text()})
	}
	return st
}

// annotated lists the properties an answer body annotates with @odata.type:
// the entity's, or the first entity's of a query.
func annotated(body gjson.Result) []string {
	e := body
	if v := body.Get("value"); v.IsArray() {
		e = v.Get("0")
	}
	out := []string{}
	e.ForEach(func(k, _ gjson.Result) bool {
		if name, ok := strings.CutSuffix(k.String(), "@odata.type"); ok {
			out = append(out, name)
		}
		return true
	})
	return out
}

// header finds a header of a reply by name, in any case.
func header(r rest.Reply, name string) string {
	for _, kv := range r.Headers {
		if strings.EqualFold(kv[0], name) {
			return kv[1]
		}
	}
	return ""
}

func bodyOf(r *rest.Reply) string {
	if r == nil {
		return ""
	}
	return r.Body
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
