package play

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// goReadBatchResponse reads a $batch answer with mime/multipart (raw parts)
// and http.ReadResponse, as ReadBatchResponse once did, for comparison.
func goReadBatchResponse(contentType, body string) (BatchAnswer, error) {
	ans := BatchAnswer{OK: true, FailedIndex: -1, Parts: []BatchPart{}}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return ans, errors.New("not a batch response")
	}
	p, err := multipart.NewReader(strings.NewReader(body), params["boundary"]).NextRawPart()
	if err != nil {
		return ans, errors.New("not a batch response")
	}
	_, cparams, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
	if err != nil || cparams["boundary"] == "" {
		return ans, errors.New("not a changeset response")
	}
	cs := multipart.NewReader(p, cparams["boundary"])
	for i := 0; i < maxAnswerParts; i++ {
		part, err := cs.NextRawPart()
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
			bp.Code, bp.Message = ErrorOf(rb)
			ans.FailedIndex = failedIndex(bp.Message)
		}
		ans.Parts = append(ans.Parts, bp)
	}
	return ans, nil
}

// FuzzReadBatchResponse: a $batch answer is read as Go's multipart and HTTP
// readers read it (statuses, ETags, error codes and messages, the failing
// index), and refused where they refuse it. Chunked part bodies, which the
// service never sends, are left out.
func FuzzReadBatchResponse(f *testing.F) {
	ok := "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n" +
		"--changesetresponse_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"HTTP/1.1 204 No Content\r\nX-Content-Type-Options: nosniff\r\nETag: W/\"datetime'2026-11-22T12%3A00%3A00Z'\"\r\n\r\n\r\n" +
		"--changesetresponse_2--\r\n--batchresponse_1--\r\n"
	failed := "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n" +
		"--changesetresponse_2\r\nContent-Type: application/http\r\n\r\n" +
		"HTTP/1.1 409 Conflict\r\nContent-Type: application/json;odata=minimalmetadata\r\n\r\n" +
		`{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"1:The specified entity already exists.\nRequestId:x"}}}` + "\r\n" +
		"--changesetresponse_2--\r\n--batchresponse_1--\r\n"
	for _, s := range []string{ok, failed, strings.Replace(failed, "HTTP/1.1 409", "HTTP/1.1 4x9", 1), strings.Replace(ok, "\r\n\r\n\r\n--changes", "\r\n--changes", 1)} {
		f.Add("multipart/mixed; boundary=batchresponse_1", s)
	}
	f.Fuzz(func(t *testing.T, ct, body string) {
		if strings.Contains(strings.ToLower(body), "transfer-encoding") {
			return
		}
		got, err := ReadBatchResponse(ct, body)
		want, werr := goReadBatchResponse(ct, body)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: error %v, Go's readers %v", body, err, werr)
		}
		if len(got.Parts) > maxAnswerParts {
			t.Fatalf("%d parts, over the bound", len(got.Parts))
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n%+v\nGo's readers:\n%+v", body, got, want)
		}
	})
}
