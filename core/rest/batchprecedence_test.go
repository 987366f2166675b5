package rest_test

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBatchPartsBoundWinsOverPartError: a changeset of more than 1000 parts
// is refused as a malformed envelope (400 InvalidInput for the whole
// request), even when its first part cannot be decoded; the transcript
// batch-precedence pins the other envelope errors.
func TestBatchPartsBoundWinsOverPartError(t *testing.T) {
	part := func(body string) string {
		return "--cs\r\nContent-Type: application/http\r\n\r\nPOST /devstoreaccount1/tbl HTTP/1.1\r\nContent-Type: application/json\r\n\r\n" + body + "\r\n"
	}
	for _, tc := range []struct {
		parts int
		code  int
	}{{1000, 202}, {1001, 400}} {
		body := "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n" + part("{") +
			strings.Repeat(part(`{"PartitionKey":"p","RowKey":"r"}`), tc.parts-1) + "--cs--\r\n--b--\r\n"
		req := httptest.NewRequest("POST", "/devstoreaccount1/$batch", strings.NewReader(body))
		req.Header.Set("Content-Type", "multipart/mixed; boundary=b")
		req.Header.Set("x-ms-version", "2019-02-02")
		rec := httptest.NewRecorder()
		deterministicHandler().ServeHTTP(rec, req)
		got := rec.Body.String()
		switch {
		case rec.Code != tc.code:
			t.Errorf("%d parts: status %d, want %d\n%.400s", tc.parts, rec.Code, tc.code, got)
		case tc.code == 400 && !strings.HasPrefix(got, `{"odata.error":{"code":"InvalidInput"`):
			t.Errorf("%d parts: %.400s", tc.parts, got)
		case tc.code == 202 && (strings.Count(got, "HTTP/1.1 ") != 1 || !strings.Contains(got, `"code":"InvalidInput","message":{"lang":"en-US","value":"One of the request inputs is not valid.`)):
			t.Errorf("%d parts: want one failed part, unprefixed (the first part failed): %.1200s", tc.parts, got)
		}
	}
}
