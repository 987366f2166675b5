package rest_test

import (
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
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
