package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// objects reaches the rooms' Durable Objects: one per account, found by
// name (in the Worker, the ROOMS namespace's idFromName and a stub's fetch).
type objects interface {
	Fetch(account string, r *http.Request) (*http.Response, error)
}

// entry is the Worker: it creates rooms, hands each room's requests to the
// room's object, and serves the site's files.
type entry struct {
	cfg    config
	rooms  objects
	assets http.Handler // the static site; nil answers 404
	clock  func() time.Time
	rnd    func([]byte) (int, error) // crypto/rand in the Worker
}

// ServeHTTP routes one request: /rooms, then /<room>/… to the room's
// object, then the site.
func (e *entry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := e.clock()
	joinSplit(r.Header)
	if r.URL.Path == "/rooms" {
		e.serveRooms(w, r, now)
		return
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if account, ok := roomOf(first); ok {
		if len(e.cfg.secret) == 0 || !issued(e.cfg.secret, account) {
			// Never given: answered as the object of a room nobody
			// created answers, without reaching (and so storing) one.
			e.fail(w, r, tableerr.New(tableerr.ResourceNotFound), now)
			return
		}
		e.forward(w, r, account, now)
		return
	}
	if e.assets == nil {
		http.NotFound(w, r)
		return
	}
	e.assets.ServeHTTP(w, r)
}

// serveRooms answers /rooms: POST creates a room, OPTIONS is the preflight
// of a page on any origin that creates one.
func (e *entry) serveRooms(w http.ResponseWriter, r *http.Request, now time.Time) {
	switch r.Method {
	case http.MethodOptions:
		preflightRooms(w, r)
	case http.MethodPost:
		e.create(w, r, now)
	default:
		w.Header().Set("Allow", "POST, OPTIONS")
		e.fail(w, r, tableerr.WithMessage(tableerr.MethodNotAllowed, "Rooms are created with POST /rooms."), now)
	}
}

// create makes a room: a fresh name, its key, the object told to start the
// room, and the answer the SDKs and the page take as they are.
func (e *entry) create(w http.ResponseWriter, r *http.Request, now time.Time) {
	if len(e.cfg.secret) == 0 {
		e.fail(w, r, tableerr.WithMessage(tableerr.InternalError,
			"This deployment has no ROOM_SECRET, so it cannot give rooms keys; set the secret (docs/hosting.md)."), now)
		return
	}
	o, bad := e.cfg.options(r)
	if bad != nil {
		e.fail(w, r, bad, now)
		return
	}
	if refused := e.admit(w, r, now); refused {
		return
	}
	base := origin(r)
	var account string
	var key []byte
	// 40 random bits: among a million rooms a new name meets an old one
	// about once in two million creations, and the object's 409 takes
	// another.
	for try := 0; ; try++ {
		var err error
		if account, err = newRoomName(e.rnd, e.cfg.secret); err != nil {
			e.fail(w, r, tableerr.New(tableerr.InternalError), now)
			return
		}
		key = roomKey(e.cfg.secret, account)
		serr := e.start(base, account, key, o, now)
		if serr == nil {
			break
		}
		if serr != errNameTaken || try == 2 {
			if serr == errNameTaken {
				serr = tableerr.New(tableerr.InternalError)
			}
			e.fail(w, r, serr, now)
			return
		}
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // the links' "&" as it is
	enc.Encode(newRoom(base, account, key, o, now))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusCreated)
	w.Write(body.Bytes())
}

// origin is the scheme and host the request came to ("https://host"): the
// base of a room's endpoint and links.
func origin(r *http.Request) string {
	scheme, host := r.URL.Scheme, r.URL.Host
	if scheme == "" {
		scheme = "http"
	}
	if host == "" {
		host = r.Host
	}
	return scheme + "://" + host
}

// forward hands a room's request to its object with the request's clock
// and copies the object's answer back as it is (the object holds the key and
// answers as the engine does). A body declared longer than the service
// takes is answered 413 RequestBodyTooLarge here, before the object (which
// judges the signature on the head, then reads at most 4 MiB + 1 of a body
// it let through) is reached.
func (e *entry) forward(w http.ResponseWriter, r *http.Request, account string, now time.Time) {
	if r.ContentLength > rest.MaxBody {
		e.fail(w, r, tableerr.New(tableerr.RequestBodyTooLarge), now)
		return
	}
	out := r.Clone(r.Context())
	roomHeaders(out.Header, now)
	if r.Body == http.NoBody {
		out.Body = nil
	}
	resp, err := e.rooms.Fetch(account, out)
	if err != nil {
		log.Printf("room %s: %v", account, err)
		e.fail(w, r, tableerr.WithMessage(tableerr.ServerBusy, "The room's object did not answer; retry the request."), now)
		return
	}
	copyResponse(w, resp)
}

// copyResponse writes an answer fetched elsewhere as it is.
func copyResponse(w http.ResponseWriter, resp *http.Response) {
	defer resp.Body.Close()
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// joinSplit undoes what syumai/workers (v0.33.0, internal/jshttp) does to
// the headers of every request it hands Go: it splits each value at its
// commas ("Date: Thu, 26 Nov …" arrives as "Thu" and " 26 Nov …", a list of
// headers as its items). Joined again with ",", each value is the client's
// bytes, as the room's engine must see them. (Answers do not pass through
// that code: jsFetch reads them, and the ResponseWriter sends each value
// whole.)
func joinSplit(h http.Header) {
	for k, v := range h {
		if len(v) > 1 {
			h[k] = []string{strings.Join(v, ",")}
		}
	}
}

// misconfigured answers every request with the deployment's configuration
// error, rather than serving rooms with settings nobody chose.
func misconfigured(e *entry, err error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.fail(w, r, tableerr.WithMessage(tableerr.InternalError, "The Worker is misconfigured: "+err.Error()), e.clock())
	})
}

// fail writes an error of the entry itself in the service's format.
func (e *entry) fail(w http.ResponseWriter, r *http.Request, err *tableerr.Error, now time.Time) {
	writeError(w, r, err, e.requestID(), now)
}

// requestID is a GUID-shaped id for the entry's own answers.
func (e *entry) requestID() string {
	var b [16]byte
	e.rnd(b[:])
	s := hex.EncodeToString(b[:])
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}
