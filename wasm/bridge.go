//go:build js && wasm

package main

import (
	"net/url"
	"syscall/js"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/tableerr"
	"github.com/tableplay/tableplay/core/wire"
)

// panicPath lets the browser tests prove that a panic inside a request
// becomes a 500 answer and leaves the engine running.
const panicPath = "/_tableplay/panic"

// handleRequest is the Table API as the loader calls it:
// handleRequest(method, url, headers, body) with the absolute URL, the
// headers as [name, value] pairs (a browser joins repeated values with
// commas) and the body as a Uint8Array; it returns {status, statusText,
// headers, body} with the headers as pairs and the body as a Uint8Array.
// The engine answers synchronously: nothing in a request waits for the page.
func handleRequest(api rest.Server) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(api, args)
	})
}

// answer serves one call. A panic outside the handler's own recovery
// becomes a 500 InternalError answer instead of a dead engine.
func answer(api rest.Server, args []js.Value) (out js.Value) {
	defer func() {
		if p := recover(); p != nil {
			rec := rest.Recorder{Header: rest.Header{"Content-Type": {odata.MinimalMetadata.ContentType()}}}
			rec.WriteHeader(500)
			rec.Write(odata.AppendError(nil, tableerr.New(tableerr.InternalError), "bridge", edm.TicksFromTime(time.Now())))
			out = toJS(&rec)
		}
	}()
	arg := func(i int) js.Value {
		if i < len(args) {
			return args[i]
		}
		return js.Undefined()
	}
	u, err := url.Parse(arg(1).String())
	if err != nil {
		rec := rest.Recorder{Header: rest.Header{}}
		rec.WriteHeader(500)
		rec.Write([]byte(err.Error()))
		return toJS(&rec)
	}
	// A browser Request has no Host header: the URL's host is the host.
	// The browser chose the scheme from the real connection, so it says
	// whether the request was secure (a SAS with spr=https judges it).
	r := rest.Request{Method: arg(0).String(), URL: u, Host: u.Host, Header: headerFromJS(arg(2)), ContentLength: -1, TLS: u.Scheme == "https"}
	if b := arg(3); b.Type() == js.TypeObject {
		r.ContentLength = int64(b.Length())
		// A body over the limit is answered 413 without being copied in.
		if r.ContentLength <= rest.MaxBody {
			r.Body = make([]byte, r.ContentLength)
			js.CopyBytesToGo(r.Body, b)
		}
	}
	if u.Path == panicPath {
		panic("forced by " + panicPath)
	}
	rec := rest.Recorder{Header: rest.Header{}}
	api.Handle(&rec, rec.Header, r)
	if r.Method == "HEAD" {
		rec.Body = nil // a server sends HEAD's headers only
	}
	return toJS(&rec)
}

// headerFromJS reads [name, value] pairs into a Header; a browser has
// already joined a field's values with commas, and the value is kept whole.
func headerFromJS(pairs js.Value) rest.Header {
	h := rest.Header{}
	if pairs.Type() != js.TypeObject {
		return h
	}
	for i, n := 0, pairs.Length(); i < n; i++ {
		kv := pairs.Index(i)
		k := wire.CanonicalKey(kv.Index(0).String())
		h[k] = append(h[k], kv.Index(1).String())
	}
	return h
}

// toJS builds the loader's answer object from a recorded answer.
func toJS(rec *rest.Recorder) js.Value {
	status := rec.Status()
	headers := js.Global().Get("Array").New()
	for k, vs := range rec.Header {
		for _, v := range vs {
			headers.Call("push", []any{k, v})
		}
	}
	body := js.Global().Get("Uint8Array").New(len(rec.Body))
	js.CopyBytesToJS(body, rec.Body)
	out := js.Global().Get("Object").New()
	out.Set("status", status)
	out.Set("statusText", wire.StatusText(status))
	out.Set("headers", headers)
	out.Set("body", body)
	return out
}
