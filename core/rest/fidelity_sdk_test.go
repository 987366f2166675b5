package rest_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestSDKWholeBeforePart: an entity of 127 strings of 32,768 characters
// breaks the string rule 127 times and the 1 MiB entity limit once; the live
// service answers EntityTooLarge (F-SIZE-ORDER).
func TestSDKWholeBeforePart(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.CreateTable(ctx, "sizes", nil); err != nil {
		t.Fatal(err)
	}
	c := f.svc.NewClient("sizes")
	e := map[string]any{"PartitionKey": "p", "RowKey": "r"}
	long := strings.Repeat("x", 32768)
	for i := 0; i < 127; i++ {
		e["p"+strconv.Itoa(i)] = long
	}
	_, err := c.AddEntity(ctx, marshal(t, e), nil)
	wantCode(t, err, "EntityTooLarge", 400)

	one := map[string]any{"PartitionKey": "p", "RowKey": "r", "s": long}
	_, err = c.AddEntity(ctx, marshal(t, one), nil)
	wantCode(t, err, "PropertyValueTooLarge", 400)
}
