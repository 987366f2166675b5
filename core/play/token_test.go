package play

import (
	"testing"

	"github.com/tableplay/tableplay/core/store"
)

func TestDecodeContinuation(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	c := decode[Continuation](t, a.DecodeContinuation([]byte(`{"nextPartitionKey":"1!8!cmV0YWls","nextRowKey":"`+store.EncodeToken("o/k+é")+`"}`)))
	if c.PartitionKey.Key != "retail" || !c.PartitionKey.Valid || c.PartitionKey.Raw != "1!8!cmV0YWls" || c.RowKey.Key != "o/k+é" ||
		c.Says != "The next page starts at PartitionKey 'retail', RowKey 'o/k+é', that entity included." || c.TableName != nil {
		t.Errorf("%+v %+v %+v", c, c.PartitionKey, c.RowKey)
	}
	// A table token carries the creation time after byte 0x01: only the name shows.
	c = decode[Continuation](t, a.DecodeContinuation([]byte(`{"nextTableName":"1!40!dGFibGUzNTg2MTlkMgEwMWQzNTljZGFiMWI3OTg1"}`)))
	if c.TableName.Key != "table358619d2" || c.Says != "The next page of tables starts at 'table358619d2', that table included." {
		t.Errorf("%+v %+v", c, c.TableName)
	}
	c = decode[Continuation](t, a.DecodeContinuation([]byte(`{"nextPartitionKey":"1!9!cmV0YWls"}`)))
	if c.PartitionKey.Valid || c.Says != "A token is not one the service makes: it names no key." {
		t.Errorf("%+v", c)
	}
	if c := decode[Continuation](t, a.DecodeContinuation([]byte(`{}`))); c.Says != "" || c.PartitionKey != nil {
		t.Errorf("%+v", c)
	}
	if m := decode[map[string]string](t, a.DecodeContinuation([]byte(`[`))); m["error"] == "" {
		t.Error("no error for bad JSON")
	}
}
