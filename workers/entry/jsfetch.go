//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"syscall/js"
)

// jsFetch sends a Go request through a JavaScript fetch (a Durable Object
// stub's or a service binding's) without syumai/workers' conversions, which
// stream every body through Go again (about 6 ms of CPU per insert through
// the entry) and split header values at their commas: the client's body
// stream goes to the object as it is, and the answer's body back to the
// client as it is.
//
// A JavaScript exception on the way (a request the runtime refuses) is the
// request's error: a panic would end the isolate's one Go instance, and
// every request in it.
func jsFetch(target js.Value, r *http.Request) (_ *http.Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			jerr, ok := p.(js.Error)
			if !ok {
				panic(p)
			}
			err = jerr
		}
	}()
	headers := js.Global().Get("Headers").New()
	for k, vs := range r.Header {
		for _, v := range vs {
			headers.Call("append", k, v)
		}
	}
	init := js.Global().Get("Object").New()
	init.Set("method", r.Method)
	init.Set("headers", headers)
	// Fetch's Request takes no body for GET or HEAD; the service ignores
	// one there too.
	if r.Body != nil && r.Body != http.NoBody && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if raw, ok := r.Body.(interface{ GetRawJSBody() js.Value }); ok {
			init.Set("body", raw.GetRawJSBody()) // the client's own stream
		} else {
			b, err := io.ReadAll(r.Body) // the entry's own small bodies
			if err != nil {
				return nil, err
			}
			u := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(u, b)
			init.Set("body", u)
		}
	}
	resp, err := await(target.Call("fetch", js.Global().Get("Request").New(r.URL.String(), init)))
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	entries := js.Global().Get("Array").Call("from", resp.Get("headers").Call("entries"))
	for i := 0; i < entries.Length(); i++ {
		e := entries.Index(i)
		h.Add(e.Index(0).String(), e.Index(1).String())
	}
	return &http.Response{StatusCode: resp.Get("status").Int(), Header: h, Body: &jsBody{resp: resp}}, nil
}

// jsBody is a fetched answer's body: handed on as its JavaScript stream to
// a writer that takes one (syumai/workers' ResponseWriter), else read whole.
type jsBody struct {
	resp   js.Value
	buf    *bytes.Reader
	handed bool
}

// WriteTo hands the stream on when w takes one, so io.Copy passes the
// object's answer to the client without Go reading it.
func (b *jsBody) WriteTo(w io.Writer) (int64, error) {
	if raw, ok := w.(interface{ WriteRawJSBody(js.Value) }); ok && b.buf == nil {
		if body := b.resp.Get("body"); !body.IsNull() && !body.IsUndefined() {
			raw.WriteRawJSBody(body)
		}
		b.handed = true
		return 0, nil
	}
	if err := b.load(); err != nil {
		return 0, err
	}
	return b.buf.WriteTo(w)
}

// Read reads the whole body at the first call (the entry reads only its
// own small answers so).
func (b *jsBody) Read(p []byte) (int, error) {
	if err := b.load(); err != nil {
		return 0, err
	}
	return b.buf.Read(p)
}

func (b *jsBody) load() error {
	if b.buf != nil {
		return nil
	}
	if b.handed {
		return errors.New("the body was handed on")
	}
	ab, err := await(b.resp.Call("arrayBuffer"))
	if err != nil {
		return err
	}
	u := js.Global().Get("Uint8Array").New(ab)
	data := make([]byte, u.Length())
	js.CopyBytesToGo(data, u)
	b.buf = bytes.NewReader(data)
	return nil
}

// Close releases a body nobody read.
func (b *jsBody) Close() error {
	if body := b.resp.Get("body"); b.buf == nil && !b.handed && !body.IsNull() && !body.IsUndefined() {
		body.Call("cancel")
	}
	return nil
}

// await waits for a promise: its value, or its rejection as an error.
func await(p js.Value) (js.Value, error) {
	done := make(chan js.Value, 1)
	failed := make(chan error, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any { done <- a[0]; return nil })
	catch := js.FuncOf(func(_ js.Value, a []js.Value) any {
		failed <- errors.New(a[0].Call("toString").String())
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	select {
	case v := <-done:
		return v, nil
	case err := <-failed:
		return js.Value{}, err
	}
}
