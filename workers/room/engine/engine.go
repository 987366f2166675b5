//go:build js && wasm

package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/wasm/jshttp"
)

// engine is one room's account and the handler in front of it.
type engine struct {
	binding js.Value
	store   *store.Store
	api     *rest.Handler
	journal *journal
	// now is the current request's clock, set by handle: workerd's clock
	// does not advance while a request runs, so the object hands it over.
	now time.Time
	// waiting are the requests head let through, by id, until their body
	// has come and finish answers them.
	waiting map[int]waiting
	lastID  int
}

// waiting is a request whose head was let through: the answer it will be
// written into and the handler's continuation.
type waiting struct {
	rec    *rest.Recorder
	r      rest.Request
	method string
	finish func(rest.Request)
}

func (e *engine) clock() time.Time { return e.now }

// open(account, key, blocks, records, lastSeq) loads the account: the
// snapshot's blocks (an array of Uint8Array, empty for none), then the
// change records written after it, in order (lastSeq is the number of the
// last one). It answers "" or why the stored account cannot be loaded; the
// object then refuses to serve rather than serve a partial account.
func (e *engine) open(args []js.Value) any {
	if len(args) < 5 {
		return "open: account, key, blocks, records, lastSeq"
	}
	key, err := base64.StdEncoding.DecodeString(args[1].String())
	if err != nil || len(key) == 0 {
		return "open: the room's key is not base64"
	}
	j := &journal{binding: e.binding}
	st := store.New(store.Options{Clock: e.clock, Journal: j})
	if err := loadBlocks(st, args[2]); err != nil {
		return "the stored snapshot cannot be loaded: " + err.Error()
	}
	records := args[3]
	last := uint64(args[4].Float())
	n := uint64(records.Length())
	for i := uint64(0); i < n; i++ {
		seq := last - n + 1 + i
		if err := st.Redo(copyBytes(records.Index(int(i)))); err != nil {
			return fmt.Sprintf("the stored change record %d cannot be replayed: %v", seq, err)
		}
	}
	j.seq, j.written = last, last
	e.store, e.journal = st, j
	e.api = rest.New(rest.Options{Store: st, Credentials: rest.Credentials{Account: args[0].String(), Key: key}, Clock: e.clock})
	return ""
}

// loadBlocks loads a snapshot held as an array of blocks; an empty array
// leaves the account empty.
func loadBlocks(st *store.Store, blocks js.Value) error {
	n := blocks.Length()
	if n == 0 {
		return nil
	}
	i := 0
	return st.LoadBlocks(func() ([]byte, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return copyBytes(blocks.Index(i - 1)), nil
	})
}

func copyBytes(v js.Value) []byte {
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b
}

// argAt reads a call's arguments by position, undefined past the last:
// handle and head take the same optional tail.
func argAt(args []js.Value) func(int) js.Value {
	return func(i int) js.Value {
		if i < len(args) {
			return args[i]
		}
		return js.Undefined()
	}
}

// handle(method, url, headers, body, nowMs, remote) answers one request
// ({status, statusText, headers, body}); the answer carries broken (a
// message) once the object failed to store a change, so that the object
// restarts from its storage.
func (e *engine) handle(args []js.Value) (out any) {
	arg := argAt(args)
	e.tick(arg(4))
	defer func() {
		if p := recover(); p != nil {
			out = jshttp.ToJS(jshttp.Failure("room", e.now))
		}
		if e.journal != nil && e.journal.err != nil {
			out.(js.Value).Set("broken", e.journal.err.Error())
		}
	}()
	if e.api == nil {
		return jshttp.ToJS(jshttp.Plain("the room is not open"))
	}
	r, err := jshttp.Request(arg(0).String(), arg(1).String(), arg(2), arg(3))
	if err != nil {
		return jshttp.ToJS(jshttp.Plain(err.Error()))
	}
	if remote := arg(5); remote.Type() == js.TypeString && remote.String() != "" {
		r.RemoteAddr = net.JoinHostPort(remote.String(), "0")
	}
	return jshttp.ToJS(jshttp.Serve(e.api, r))
}

// head(method, url, headers, contentLength, nowMs, remote) begins a
// request on its head alone, before the object reads its body: it answers
// what the head decides (an unsigned or wrongly signed request, an unknown
// resource, a preflight, a declared body over the limit) as handle would,
// or, for a request the gate let through, a number: the id finish takes
// with the body. So a body is read only for a request its signature
// allows, and bodies nobody signed never fill the isolate.
func (e *engine) head(args []js.Value) (out any) {
	arg := argAt(args)
	e.tick(arg(4))
	defer func() {
		if p := recover(); p != nil {
			out = jshttp.ToJS(jshttp.Failure("room", e.now))
		}
	}()
	if e.api == nil {
		return jshttp.ToJS(jshttp.Plain("the room is not open"))
	}
	r, err := jshttp.Request(arg(0).String(), arg(1).String(), arg(2), js.Undefined())
	if err != nil {
		return jshttp.ToJS(jshttp.Plain(err.Error()))
	}
	if n := arg(3); n.Type() == js.TypeNumber {
		r.ContentLength = int64(n.Float())
	}
	if remote := arg(5); remote.Type() == js.TypeString && remote.String() != "" {
		r.RemoteAddr = net.JoinHostPort(remote.String(), "0")
	}
	rec := &rest.Recorder{Header: rest.Header{}}
	finish := e.api.HandleHead(rec, rec.Header, r)
	if finish == nil {
		return jshttp.ToJS(headOnly(rec, r.Method))
	}
	if e.waiting == nil {
		e.waiting = map[int]waiting{}
	}
	e.lastID++
	e.waiting[e.lastID] = waiting{rec: rec, r: r, method: r.Method, finish: finish}
	return e.lastID
}

// finish(id, body) answers a request head let through, with its body: a
// Uint8Array, undefined for none, or a number, the length of a body over
// the limit that the object did not read (the handler answers 413); body
// null drops the request (the object could not read it) and answers null.
func (e *engine) finish(args []js.Value) (out any) {
	if len(args) < 2 {
		return jshttp.ToJS(jshttp.Plain("finish: id, body"))
	}
	id := args[0].Int()
	w, ok := e.waiting[id]
	delete(e.waiting, id)
	if !ok {
		return jshttp.ToJS(jshttp.Plain("finish: no such request"))
	}
	if args[1].IsNull() {
		return js.Null()
	}
	defer func() {
		if p := recover(); p != nil {
			out = jshttp.ToJS(jshttp.Failure("room", e.now))
		}
		if e.journal != nil && e.journal.err != nil {
			out.(js.Value).Set("broken", e.journal.err.Error())
		}
	}()
	r := w.r
	r.Body, r.ContentLength = nil, 0
	if body := args[1]; body.Type() == js.TypeNumber {
		r.ContentLength = int64(body.Float())
	} else if body.Type() == js.TypeObject {
		r.ContentLength = int64(body.Length())
		if r.ContentLength <= rest.MaxBody {
			r.Body = make([]byte, r.ContentLength)
			js.CopyBytesToGo(r.Body, body)
		}
	}
	w.finish(r)
	return jshttp.ToJS(headOnly(w.rec, w.method))
}

// headOnly drops the body of an answer to HEAD, as a server sends it.
func headOnly(rec *rest.Recorder, method string) *rest.Recorder {
	if method == "HEAD" {
		rec.Body = nil
	}
	return rec
}

// tick moves the engine's clock to a request's (milliseconds since 1970),
// never back.
func (e *engine) tick(ms js.Value) {
	if ms.Type() == js.TypeNumber {
		if t := time.UnixMilli(int64(ms.Float())).UTC(); t.After(e.now) {
			e.now = t
		}
	}
}

// compact() writes the account as snapshot blocks: {seq, blocks}, where
// seq is the last change the blocks hold. Every change is stored before
// its answer, so the object may then delete the records up to seq.
func (e *engine) compact(args []js.Value) any {
	if e.store == nil {
		return js.Null()
	}
	if err := e.journal.flush(); err != nil {
		return err.Error()
	}
	blocks := js.Global().Get("Array").New()
	err := e.store.WriteBlocks(func(b []byte) error {
		blocks.Call("push", jshttp.Bytes(b))
		return nil
	})
	if err != nil {
		return err.Error()
	}
	out := js.Global().Get("Object").New()
	out.Set("seq", float64(e.journal.seq))
	out.Set("blocks", blocks)
	return out
}

// usage() is the number of entities in the account, for the room's limit.
func (e *engine) usage(args []js.Value) any {
	if e.store == nil {
		return 0
	}
	total, next := 0, ""
	for {
		page, terr := e.store.ListTables(store.TableQuery{NextTableName: next})
		if terr != nil {
			return total
		}
		for _, name := range page.Names {
			if n, terr := e.store.Count(name); terr == nil {
				total += n
			}
		}
		if next = page.NextTableName; next == "" {
			return total
		}
	}
}

// fail(status, code, message, nowMs, requestId) is an answer of the object's own (an
// unknown or expired room, a limit) in the service's error format.
func (e *engine) fail(args []js.Value) any {
	if len(args) < 5 {
		return jshttp.ToJS(jshttp.Plain("fail: status, code, message, nowMs, requestId"))
	}
	now := time.UnixMilli(int64(args[3].Float())).UTC()
	terr := &tableerr.Error{Status: args[0].Int(), Code: tableerr.Code(args[1].String()), Message: args[2].String()}
	id := args[4].String()
	rec := &rest.Recorder{Header: rest.Header{
		"Content-Type":           {odata.MinimalMetadata.ContentType()},
		"Cache-Control":          {"no-cache"},
		"X-Content-Type-Options": {"nosniff"},
		"X-Ms-Request-Id":        {id},
		"X-Ms-Version":           {rest.DefaultVersion},
		"Date":                   {now.Format("Mon, 02 Jan 2006 15:04:05 GMT")},
		"Server":                 {"Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0"},
	}}
	rec.WriteHeader(terr.Status)
	rec.Write(odata.AppendError(nil, terr, id, edm.TicksFromTime(now)))
	return jshttp.ToJS(rec)
}
