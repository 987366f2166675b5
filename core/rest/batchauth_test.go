package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// singleGetBatch is a $batch body whose one part is a GET outside any
// changeset.
func singleGetBatch(base, path string) string {
	return "--batch_x\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"GET " + base + path + " HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n--batch_x--\r\n"
}

// changesetBatch is a $batch body with one changeset holding one write.
func changesetBatch(base, method, path, body string) string {
	return "--batch_x\r\nContent-Type: multipart/mixed; boundary=changeset_y\r\n\r\n" +
		"--changeset_y\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		method + " " + base + path + " HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\nIf-Match: *\r\n\r\n" +
		body + "\r\n--changeset_y--\r\n--batch_x--\r\n"
}

// A shared access signature grants through $batch exactly what it grants
// directly: a part addressed to another table, or outside the key range, or
// needing a permission the signature lacks, is refused with the direct
// request's error.
func TestSASBatchPartsAuthorizedAsDirectRequests(t *testing.T) {
	f := newFixture(t)
	for _, tn := range []string{"tone", "secret"} {
		f.svc.CreateTable(ctx, tn, nil)
		f.svc.NewClient(tn).AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "a", "RowKey": "1", "Secret": "s3cr3t"}), nil)
	}
	now := time.Now()
	s := rest.SAS{Version: "2019-02-02", Permissions: "a", Start: sasTime(now.Add(-time.Minute)), Expiry: sasTime(now.Add(time.Hour)),
		Table: "tone", StartPK: "a", EndPK: "b"}
	s.Signature = rest.WellKnown().SignSAS(s)
	base := f.srv.URL + "/" + rest.WellKnownAccount
	sas := "?" + s.Encode()

	direct := func(method, path string) *http.Response {
		req, _ := http.NewRequest(method, base+path+sas, nil)
		req.Header.Set("Accept", "application/json;odata=minimalmetadata")
		req.Header.Set("If-Match", "*")
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	batch := func(body string) string {
		req, _ := http.NewRequest("POST", base+"/$batch"+sas, strings.NewReader(body))
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_x")
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for _, tc := range []struct {
		name, method, path, body string
		code                     string
	}{
		{"read of another table", "GET", "/secret(PartitionKey='a',RowKey='1')", "", "AuthorizationFailure"},
		{"read without r", "GET", "/tone(PartitionKey='a',RowKey='1')", "", "AuthorizationPermissionMismatch"},
		{"delete in another table", "DELETE", "/secret(PartitionKey='a',RowKey='1')", "", "AuthorizationFailure"},
		{"delete without d", "DELETE", "/tone(PartitionKey='a',RowKey='1')", "", "AuthorizationPermissionMismatch"},
		{"merge outside the key range", "MERGE", "/tone(PartitionKey='z',RowKey='1')", `{"X":1}`, "AuthorizationFailure"},
	} {
		if resp := direct(tc.method, tc.path); resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != tc.code {
			t.Errorf("%s, direct: %d %s, want 403 %s", tc.name, resp.StatusCode, resp.Header.Get("x-ms-error-code"), tc.code)
		}
		var got string
		if tc.method == "GET" {
			got = batch(singleGetBatch(base, tc.path))
		} else {
			got = batch(changesetBatch(base, tc.method, tc.path, tc.body))
		}
		if strings.Contains(got, "s3cr3t") || !strings.Contains(got, "HTTP/1.1 403 Forbidden") || !strings.Contains(got, `"code":"`+tc.code+`"`) {
			t.Errorf("%s, through $batch: want a 403 %s part, got\n%s", tc.name, tc.code, got)
		}
	}
}
