package main

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// fakeRooms plays the rooms' objects by workers/CONTRACT.md with the real
// engine (core/rest over a store), so the entry's own logic is tested
// without workerd; workerd_test.go runs the real objects.
type fakeRooms struct {
	mu      sync.Mutex
	rooms   map[string]http.Handler
	created map[string]createRequest
	last    http.Header // the headers of the last request a room got
	admits  int         // the registry's admit requests
	// admit, when set, answers the registry's admit requests (else 200)
	admit func(*http.Request) *http.Response
}

func newFakeRooms() *fakeRooms {
	return &fakeRooms{rooms: map[string]http.Handler{}, created: map[string]createRequest{}}
}

// Fetch answers as an object would: create, or the engine of a created room
// with the clock the entry passed, or 404 for a room never created.
func (f *fakeRooms) Fetch(account string, r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := httptest.NewRecorder()
	if r.URL.Path == admitPath {
		f.admits++
		if f.admit != nil {
			return f.admit(r), nil
		}
		rec.WriteHeader(200)
		return rec.Result(), nil
	}
	if r.URL.Path == createPath {
		var c createRequest
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil || c.Account != account {
			rec.WriteHeader(400)
			return rec.Result(), nil
		}
		key, _ := base64.StdEncoding.DecodeString(c.Key)
		var now time.Time
		clock := func() time.Time { return now }
		h := resthttp.New(rest.New(rest.Options{
			Store: store.New(store.Options{Clock: clock}), Credentials: rest.Credentials{Account: account, Key: key}, Clock: clock,
		}))
		f.rooms[account] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ms, _ := strconv.ParseInt(r.Header.Get(headerNow), 10, 64)
			now = time.UnixMilli(ms)
			h.ServeHTTP(w, r)
		})
		f.created[account] = c
		rec.WriteHeader(201)
		return rec.Result(), nil
	}
	f.last = r.Header.Clone()
	room, ok := f.rooms[account]
	if !ok {
		rec.WriteHeader(404)
		return rec.Result(), nil
	}
	room.ServeHTTP(rec, r)
	return rec.Result(), nil
}
