//go:build js && wasm

// Package jshttp carries Table API requests and answers across syscall/js
// for the hosts that run the engine as js/wasm: the page (wasm/) and the
// room object of a hosted endpoint (workers/room/engine). A request comes
// as method, absolute URL, header pairs and body bytes; an answer goes back
// as {status, statusText, headers, body} with the headers as pairs and the
// body as a Uint8Array.
package jshttp

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

// Request reads a request: the absolute URL's host is the host, and its
// scheme says whether the connection was secure (a SAS with spr=https
// judges it). A body over rest.MaxBody is not copied in (the handler
// answers 413 from ContentLength).
func Request(method, rawURL string, headers, body js.Value) (rest.Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rest.Request{}, err
	}
	r := rest.Request{Method: method, URL: u, Host: u.Host, Header: Header(headers), ContentLength: -1, TLS: u.Scheme == "https"}
	if body.Type() == js.TypeObject {
		r.ContentLength = int64(body.Length())
		if r.ContentLength <= rest.MaxBody {
			r.Body = make([]byte, r.ContentLength)
			js.CopyBytesToGo(r.Body, body)
		}
	}
	return r, nil
}

// Header reads [name, value] pairs into a Header; a browser or a Worker
// has already joined a field's values with commas, and the value is kept
// whole.
func Header(pairs js.Value) rest.Header {
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

// Serve answers r with api; HEAD's answer keeps its headers only, as a
// server sends it.
func Serve(api rest.Server, r rest.Request) *rest.Recorder {
	rec := &rest.Recorder{Header: rest.Header{}}
	api.Handle(rec, rec.Header, r)
	if r.Method == "HEAD" {
		rec.Body = nil
	}
	return rec
}

// Failure is the 500 InternalError answer for a request the host could
// not hand to the engine (a panic outside the handler's own recovery).
func Failure(requestID string, now time.Time) *rest.Recorder {
	rec := &rest.Recorder{Header: rest.Header{"Content-Type": {odata.MinimalMetadata.ContentType()}}}
	rec.WriteHeader(500)
	rec.Write(odata.AppendError(nil, tableerr.New(tableerr.InternalError), requestID, edm.TicksFromTime(now)))
	return rec
}

// Plain is a 500 answer with a plain-text body, for a URL that cannot be
// read at all.
func Plain(text string) *rest.Recorder {
	rec := &rest.Recorder{Header: rest.Header{}}
	rec.WriteHeader(500)
	rec.Write([]byte(text))
	return rec
}

// ToJS builds the host's answer object from a recorded answer.
func ToJS(rec *rest.Recorder) js.Value {
	status := rec.Status()
	headers := js.Global().Get("Array").New()
	for k, vs := range rec.Header {
		for _, v := range vs {
			headers.Call("push", []any{k, v})
		}
	}
	out := js.Global().Get("Object").New()
	out.Set("status", status)
	out.Set("statusText", wire.StatusText(status))
	out.Set("headers", headers)
	out.Set("body", Bytes(rec.Body))
	return out
}

// Bytes copies b into a new Uint8Array.
func Bytes(b []byte) js.Value {
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	return arr
}
