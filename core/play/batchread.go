package play

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/mediatype"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/wire"
)

// maxAnswerParts bounds the parts read from one $batch answer, as the
// service bounds those of a request.
const maxAnswerParts = 1000

// BatchPart is one part of a $batch answer.
type BatchPart struct {
	// Status is the part's HTTP status code.
	Status int `json:"status"`
	// StatusText is the status's standard reason phrase, such as "No Content".
	StatusText string `json:"statusText"`
	// ETag is the part's ETag header; empty when it has none.
	ETag string `json:"etag,omitempty"`
	// Code is the service's error code for a failed part (status 400 and
	// up); empty otherwise.
	Code string `json:"code,omitempty"`
	// Message is the error's message, without the RequestId and Time lines;
	// in a changeset of several operations it starts with the failing
	// operation's index and a colon.
	Message string `json:"message,omitempty"`
}

// BatchAnswer is a read $batch answer: its parts and, for a failed
// changeset, the index of the operation that failed.
type BatchAnswer struct {
	// OK says no part failed (every status is below 400).
	OK bool `json:"ok"`
	// Parts are the changeset's answer parts, in order.
	Parts       []BatchPart `json:"parts"`
	FailedIndex int         `json:"failedIndex"` // -1 when every operation succeeded
}

// ReadBatchResponse reads a $batch response body as a client does: each part's
// status, ETag and error, and the failing operation's index — the number
// before the colon in its message, or 0 when the changeset had one operation
// (F-BATCH-FAILURE).
func ReadBatchResponse(contentType, body string) (BatchAnswer, error) {
	ans := BatchAnswer{OK: true, FailedIndex: -1, Parts: []BatchPart{}}
	_, params, ok := mediatype.Parse(contentType)
	if !ok || params["boundary"] == "" {
		return ans, errors.New("not a batch response")
	}
	p, done, err := wire.NewPartReader([]byte(body), params["boundary"]).Next()
	if err != nil || done {
		return ans, errors.New("not a batch response")
	}
	_, cparams, ok := mediatype.Parse(p.Header.Get("Content-Type"))
	if !ok || cparams["boundary"] == "" {
		return ans, errors.New("not a changeset response")
	}
	cs := wire.NewPartReader(p.Body, cparams["boundary"])
	for i := 0; i < maxAnswerParts; i++ {
		part, done, err := cs.Next()
		if err != nil || done {
			break
		}
		status, rb, err := readResponsePart(part.Body)
		if err != nil {
			return ans, errors.New("unreadable part: " + err.Error())
		}
		bp := BatchPart{Status: status.code, StatusText: wire.StatusText(status.code), ETag: status.etag}
		if status.code >= 400 {
			ans.OK = false
			bp.Code, bp.Message = ErrorOf(rb)
			ans.FailedIndex = failedIndex(bp.Message)
		}
		ans.Parts = append(ans.Parts, bp)
	}
	return ans, nil
}

// failedIndex is the index of the failed operation that a batch error's
// message starts with ("3:The specified…"), 0 when it names none.
func failedIndex(message string) int {
	if pre, _, found := strings.Cut(message, ":"); found {
		if n, err := strconv.Atoi(pre); err == nil {
			return n
		}
	}
	return 0
}

// partStatus is what a client reads of an answer part's head.
type partStatus struct {
	code int
	etag string
}

// readResponsePart reads an application/http answer part: its status line,
// its headers, and its body (no longer than a Content-Length it gives).
func readResponsePart(raw []byte) (partStatus, []byte, error) {
	code, rest, err := wire.ReadStatusLine(raw)
	if err != nil {
		return partStatus{}, nil, err
	}
	h, body, err := wire.ReadHeader(rest)
	if err != nil {
		return partStatus{}, nil, err
	}
	n, err := wire.ContentLength(h)
	if err != nil {
		return partStatus{}, nil, err
	}
	if n >= 0 && n < int64(len(body)) {
		body = body[:n]
	}
	return partStatus{code: code, etag: h.Get("ETag")}, body, nil
}

// ErrorOf reads the code and message of an odata.error body (JSON at any
// metadata level); the message without the RequestId and Time lines the
// service appends, or the RequestID line of Cosmos DB for Table
// (F-COSMOS-ERRORS). Both are empty for any other body.
func ErrorOf(body []byte) (code, message string) {
	var e struct {
		Err struct {
			Code    string `json:"code"`
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	if !odata.WithinDepth(body, odata.MaxDepth) || json.Unmarshal(body, &e) != nil {
		return "", ""
	}
	msg, _, _ := strings.Cut(e.Err.Message.Value, "\nRequestId:")
	msg, _, _ = strings.Cut(msg, "\nRequestID:")
	return e.Err.Code, msg
}
