package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The entry's words to a room's object (workers/CONTRACT.md): headers with
// this prefix, which a client may not send, and control paths under
// /_room/, which no client path reaches (a client's path starts with the
// account).
const (
	internalPrefix = "X-Tableplay-Room-"
	headerNow      = internalPrefix + "Now"
	headerRemote   = internalPrefix + "Remote"
	headerControl  = internalPrefix + "Control"
	createPath     = "/_room/create"
)

// roomHeaders replaces what a client said in the entry's words with the
// entry's own: the request's clock and the client's address.
func roomHeaders(h http.Header, now time.Time) {
	for k := range h {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), internalPrefix) {
			delete(h, k)
		}
	}
	h.Set(headerNow, strconv.FormatInt(now.UnixMilli(), 10))
	if ip := h.Get("Cf-Connecting-Ip"); ip != "" {
		h.Set(headerRemote, ip)
	}
}

// createRequest is the body of POST /_room/create.
type createRequest struct {
	Account     string `json:"account"`
	Key         string `json:"key"`
	IdleSeconds int64  `json:"idleSeconds"`
	Limits      limits `json:"limits"`
}

// limits are a room's bounds; 0 is none.
type limits struct {
	Entities int64 `json:"entities"`
	Bytes    int64 `json:"bytes"`
	RPS      int64 `json:"rps"`
}

// start creates the room in its object, then lets pages on any origin use
// it: the account's CORS rule allows every origin, method and header, set
// through the Table API with the room's key as any owner would.
func (e *entry) start(base, account string, key []byte, o options, now time.Time) *tableerr.Error {
	body, _ := json.Marshal(createRequest{
		Account: account, Key: base64.StdEncoding.EncodeToString(key), IdleSeconds: o.IdleSeconds, Limits: o.Limits,
	})
	req, _ := http.NewRequest(http.MethodPost, base+createPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerControl, "1")
	req.Header.Set(headerNow, strconv.FormatInt(now.UnixMilli(), 10))
	if err := e.call(account, req, http.StatusCreated); err != nil {
		return err
	}
	// The name is the room's from here on: a later failure leaves a room
	// without its CORS rule, not a name given twice.
	u, _ := url.Parse(base + "/" + account + "/?restype=service&comp=properties")
	req, _ = http.NewRequest(http.MethodPut, u.String(), strings.NewReader(openCors))
	date := now.UTC().Format(http.TimeFormat)
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("X-Ms-Date", date)
	req.Header.Set("X-Ms-Version", "2019-02-02")
	req.Header.Set("Authorization", rest.Credentials{Account: account, Key: key}.Sign(date, u))
	req.Header.Set(headerNow, strconv.FormatInt(now.UnixMilli(), 10))
	return e.call(account, req, http.StatusAccepted)
}

// openCors is the rooms' service properties: one CORS rule for every
// origin, so the page on any host (and a reader's own) can use a room.
// Credentials are never sent (the origin is "*"); a request is authorized
// by its signature or SAS alone.
const openCors = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule>` +
	`<AllowedOrigins>*</AllowedOrigins><AllowedMethods>DELETE,GET,HEAD,MERGE,POST,OPTIONS,PUT,PATCH</AllowedMethods>` +
	`<MaxAgeInSeconds>3600</MaxAgeInSeconds><ExposedHeaders>*</ExposedHeaders><AllowedHeaders>*</AllowedHeaders>` +
	`</CorsRule></Cors></StorageServiceProperties>`

// errNameTaken is start's error when the object of the new name already
// holds a room (or held one: names are never given twice).
var errNameTaken = tableerr.WithMessage(tableerr.InternalError, "The room's name is taken.")

// call sends one request of the entry to a room's object and expects want.
func (e *entry) call(account string, req *http.Request, want int) *tableerr.Error {
	resp, err := e.rooms.Fetch(account, req)
	if err != nil {
		log.Printf("room %s: %v", account, err)
		return tableerr.WithMessage(tableerr.ServerBusy, "The room's object did not answer; retry the request.")
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if want == http.StatusCreated && resp.StatusCode == http.StatusConflict {
		return errNameTaken
	}
	if resp.StatusCode != want {
		return tableerr.WithMessage(tableerr.InternalError,
			"The room could not be started: its object answered "+strconv.Itoa(resp.StatusCode)+" "+string(msg))
	}
	return nil
}
