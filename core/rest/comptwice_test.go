package rest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/store"
)

// A comp named twice is refused, and the refusal is the whole answer: the
// request is not decoded, authorized or executed after it (a signature
// covering the first comp must not insert while the client reads 400).
func TestCompTwiceRefusedAndNotRun(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	st.CreateTable("secret")
	h := New(Options{Store: st, Credentials: WellKnown(), Clock: time.Now})
	date := time.Now().UTC().Format(http.TimeFormat)
	req := httptest.NewRequest("POST", "/devstoreaccount1/secret?comp=x&comp=acl", strings.NewReader(`{"PartitionKey":"p","RowKey":"planted"}`))
	req.Header.Set("Accept", "application/json;odata=nometadata")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-ms-date", date)
	req.Header.Set("Authorization", sharedKey(t, "POST\n\napplication/json\n"+date+"\n/devstoreaccount1/devstoreaccount1/secret?comp=x"))
	rec := httptest.NewRecorder()
	serve(h, rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"code":"InvalidQueryParameterValue"`) || strings.Count(rec.Body.String(), `"odata.error"`) != 1 {
		t.Errorf("comp twice: %d %s", rec.Code, rec.Body)
	}
	if _, err := st.Get("secret", "p", "planted"); err == nil {
		t.Error("a request answered 400 inserted an entity")
	}
}
