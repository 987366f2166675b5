package rest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/odata"
)

// BatchPart is one part of a $batch answer.
type BatchPart struct {
	Status     int    `json:"status"`
	StatusText string `json:"statusText"`
	ETag       string `json:"etag,omitempty"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message,omitempty"`
}

// BatchAnswer is a read $batch answer: its parts and, for a failed
// changeset, the index of the operation that failed.
type BatchAnswer struct {
	OK          bool        `json:"ok"`
	Parts       []BatchPart `json:"parts"`
	FailedIndex int         `json:"failedIndex"` // -1 when every operation succeeded
}

// ReadBatchResponse reads a $batch response body as a client does: each part's
// status, ETag and error, and the failing operation's index — the number
// before the colon in its message, or 0 when the changeset had one operation
// (F-BATCH-FAILURE).
func ReadBatchResponse(contentType, body string) (BatchAnswer, error) {
	ans := BatchAnswer{OK: true, FailedIndex: -1, Parts: []BatchPart{}}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return ans, errors.New("not a batch response")
	}
	p, err := multipart.NewReader(strings.NewReader(body), params["boundary"]).NextPart()
	if err != nil {
		return ans, errors.New("not a batch response")
	}
	_, cparams, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
	if err != nil || cparams["boundary"] == "" {
		return ans, errors.New("not a changeset response")
	}
	cs := multipart.NewReader(p, cparams["boundary"])
	for i := 0; i < maxBatchParts; i++ {
		part, err := cs.NextPart()
		if err != nil {
			break
		}
		raw, _ := io.ReadAll(part)
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		if err != nil {
			return ans, errors.New("unreadable part: " + err.Error())
		}
		rb, _ := io.ReadAll(resp.Body)
		bp := BatchPart{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), ETag: resp.Header.Get("ETag")}
		if resp.StatusCode >= 400 {
			ans.OK = false
			bp.Code, bp.Message = errorOf(rb)
			ans.FailedIndex = 0
			if pre, _, found := strings.Cut(bp.Message, ":"); found {
				if n, err := strconv.Atoi(pre); err == nil {
					ans.FailedIndex = n
				}
			}
		}
		ans.Parts = append(ans.Parts, bp)
	}
	return ans, nil
}

// errorOf reads the code and message of an odata.error body.
func errorOf(body []byte) (string, string) {
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
	return e.Err.Code, msg
}
