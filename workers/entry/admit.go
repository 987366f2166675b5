package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/tableplay/tableplay/core/tableerr"
)

// registry is the object that counts the rooms created (workers/CONTRACT.md,
// "POST /_room/admit"): one object for the deployment, under a name no
// account can have, so every isolate of the entry counts in one place.
const (
	registry  = "_rooms"
	admitPath = "/_room/admit"
)

// createWindow is the period the creation bounds count in.
const createWindow = time.Hour

// admitRequest is the body of POST /_room/admit.
type admitRequest struct {
	Client        string `json:"client"`
	PerClient     int64  `json:"perClient"`
	Total         int64  `json:"total"`
	WindowSeconds int64  `json:"windowSeconds"`
}

// admitAnswer is the registry's answer: refused names the bound met
// ("client" or "total"), retryAfter is when the window ends (seconds).
type admitAnswer struct {
	Refused    string `json:"refused"`
	RetryAfter int64  `json:"retryAfter"`
}

// admit asks the registry whether the request's client may create a room
// now, within the deployment's bounds per client and in total, and answers
// 503 ServerBusy (with Retry-After) when not; it reports whether it
// answered. A client is its address (CF-Connecting-IP, which the platform
// sets); without one, every request is the same client.
func (e *entry) admit(w http.ResponseWriter, r *http.Request, now time.Time) (answered bool) {
	if e.cfg.createPerClient == 0 && e.cfg.createTotal == 0 {
		return false
	}
	body, _ := json.Marshal(admitRequest{
		Client: r.Header.Get("Cf-Connecting-Ip"), PerClient: e.cfg.createPerClient, Total: e.cfg.createTotal,
		WindowSeconds: int64(createWindow / time.Second),
	})
	req, _ := http.NewRequest(http.MethodPost, origin(r)+admitPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerControl, "1")
	req.Header.Set(headerNow, strconv.FormatInt(now.UnixMilli(), 10))
	resp, err := e.rooms.Fetch(registry, req)
	if err != nil {
		log.Printf("room registry: %v", err)
		e.fail(w, r, tableerr.WithMessage(tableerr.ServerBusy, "The rooms' registry did not answer; retry the request."), now)
		return true
	}
	defer resp.Body.Close()
	var a admitAnswer
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if resp.StatusCode == http.StatusOK {
		return false
	}
	if resp.StatusCode != http.StatusTooManyRequests || json.Unmarshal(raw, &a) != nil {
		e.fail(w, r, tableerr.WithMessage(tableerr.InternalError, "The rooms' registry answered "+strconv.Itoa(resp.StatusCode)+" "+string(raw)), now)
		return true
	}
	msg := "This deployment has created " + strconv.FormatInt(e.cfg.createTotal, 10) + " rooms this hour, its bound (ROOM_CREATE_TOTAL)"
	if a.Refused == "client" {
		msg = "This client has created " + strconv.FormatInt(e.cfg.createPerClient, 10) + " rooms this hour, the deployment's bound per client (ROOM_CREATE_PER_CLIENT)"
	}
	w.Header().Set("Retry-After", strconv.FormatInt(max(a.RetryAfter, 1), 10))
	e.fail(w, r, tableerr.WithMessage(tableerr.ServerBusy, msg+"; try again in "+strconv.FormatInt(max(a.RetryAfter, 1), 10)+" s."), now)
	return true
}
