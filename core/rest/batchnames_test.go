package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
)

// TestBatchPartNamesCheckedEachTime: a batch remembers the property names
// its earlier entities proved valid, by position; an empty name is never
// among them. Here the first entity's keys fill the position where the
// second has an empty name (the SDK sends the names sorted), which the
// service refuses in a batch as it does alone; nothing is stored.
func TestBatchPartNamesCheckedEachTime(t *testing.T) {
	f := newFixture(t)
	f.svc.CreateTable(ctx, "names", nil)
	c := f.svc.NewClient("names")
	_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"1","Zed":1}`)},
		{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"":"x","PartitionKey":"p","RowKey":"2"}`)},
	}, nil)
	var re *azcore.ResponseError
	if !asResponseError(err, &re) {
		t.Fatalf("transaction: %v", err)
	}
	body, _ := readAndRestore(re.RawResponse)
	if !strings.Contains(string(body), `"code":"PropertyNameInvalid"`) || !strings.Contains(string(body), `"value":"1:`) {
		t.Errorf("empty name in the second entity:\n%s", body)
	}
	_, err = c.AddEntity(ctx, []byte(`{"":"x","PartitionKey":"p","RowKey":"3"}`), nil)
	wantCode(t, err, "PropertyNameInvalid", 400)
	if n, _ := f.store.Count("names"); n != 0 {
		t.Errorf("%d entities stored", n)
	}
}

// TestBatchFailureAnsweredAsItsPart: when a part cannot be decoded but an
// earlier one already breaks a batch rule (the same entity twice), the
// answer names the earlier part and is written at its metadata level, not
// at the level of the part that could not be decoded.
func TestBatchFailureAnsweredAsItsPart(t *testing.T) {
	creds := rest.WellKnown()
	creds.AllowUnsigned, creds.TrustUnsigned = true, true
	h := rest.New(rest.Options{Store: store.New(store.Options{Clock: time.Now}), Credentials: creds, Clock: time.Now})
	srv := httptest.NewServer(resthttp.New(h))
	defer srv.Close()
	base := srv.URL + "/" + rest.WellKnownAccount
	post := func(path, contentType, body string) *http.Response {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Accept", "application/json;odata=minimalmetadata")
		req.Header.Set("x-ms-version", "2019-02-02")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := post("/Tables", "application/json", `{"TableName":"dups"}`); resp.StatusCode != 201 {
		t.Fatalf("create: %s", resp.Status)
	}
	part := func(accept, body string) string {
		return "--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"POST " + base + "/dups HTTP/1.1\r\nAccept: " + accept + "\r\nContent-Type: application/json\r\n\r\n" + body + "\r\n"
	}
	body := "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n" +
		part("application/json;odata=minimalmetadata", `{"PartitionKey":"p","RowKey":"1"}`) +
		part("application/json;odata=nometadata", `{"PartitionKey":"p","RowKey":"1"}`) +
		part("application/json;odata=fullmetadata", `{"PartitionKey":"p","RowKey":"2","Bad":1,"Bad@odata.type":"Edm.Nope"}`) +
		"--cs--\r\n--b--\r\n"
	resp := post("/$batch", "multipart/mixed; boundary=b", body)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	got := string(b)
	if !strings.Contains(got, `"value":"1:`) || !strings.Contains(got, "Content-Type: application/json;odata=nometadata") {
		t.Errorf("the failure of part 1 (no metadata):\n%s", got)
	}
}
