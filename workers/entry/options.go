package main

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/tableplay/tableplay/core/tableerr"
)

// options are what POST /rooms may ask for in its JSON body, all optional:
// {"idleSeconds": N, "limits": {"entities": N, "bytes": N, "rps": N}}. A
// room may be given less than the deployment allows (a lesson of an hour,
// a small room for a test), never more.
type options struct {
	IdleSeconds int64  `json:"idleSeconds"`
	Limits      limits `json:"limits"`
}

// maxOptionsBody bounds the body of POST /rooms.
const maxOptionsBody = 4 << 10

// options reads a create request's body and bounds each value by the
// deployment's: 0 or absent takes the deployment's value, and so does a
// value above it.
func (c config) options(r *http.Request) (options, *tableerr.Error) {
	var o options
	if r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxOptionsBody+1))
		if err != nil || len(b) > maxOptionsBody {
			return o, tableerr.WithMessage(tableerr.RequestBodyTooLarge, "The body of POST /rooms is at most 4 KiB of JSON.")
		}
		if len(b) > 0 {
			if err := json.Unmarshal(b, &o); err != nil || o.IdleSeconds < 0 || o.Limits.Entities < 0 || o.Limits.Bytes < 0 || o.Limits.RPS < 0 {
				return o, tableerr.WithMessage(tableerr.InvalidInput,
					`The body of POST /rooms is {"idleSeconds": N, "limits": {"entities": N, "bytes": N, "rps": N}}, each optional and ≥ 0.`)
			}
		}
	}
	o.IdleSeconds = atMost(o.IdleSeconds, int64(c.idle.Seconds()))
	o.Limits.Entities = atMost(o.Limits.Entities, c.limits.Entities)
	o.Limits.Bytes = atMost(o.Limits.Bytes, c.limits.Bytes)
	o.Limits.RPS = atMost(o.Limits.RPS, c.limits.RPS)
	return o, nil
}

// atMost is asked bounded by allowed, where 0 is "not asked" and "no
// bound" respectively.
func atMost(asked, allowed int64) int64 {
	if asked == 0 || (allowed != 0 && asked > allowed) {
		return allowed
	}
	return asked
}
