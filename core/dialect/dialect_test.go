package dialect

import (
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Azure's dialect differs in nothing: for every kind and level it answers
// what core/rest would write without one.
func TestAzureDialectIsTheService(t *testing.T) {
	d := New(profile.Azure())
	if c := *d.Common(); c != (Common{CacheControl: "no-cache", Server: "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0", NoSniff: "nosniff"}) {
		t.Errorf("Common = %+v", c)
	}
	if d.AbsentPreflight() != nil || !d.Location() || d.TableReadIsList() || !d.StorageETag() || d.TableETag(1) != "" {
		t.Error("an Azure answer's shape differs")
	}
	e := tableerr.New(tableerr.TableNotFound)
	for _, k := range op.Kinds() {
		if d.Absent(k) != nil || !d.HonoursPrefer(k) || d.Applied(k, "") != "" || d.Failure(k, e) != e {
			t.Errorf("%v: differs", k)
		}
		for _, l := range []odata.Level{odata.NoMetadata, odata.MinimalMetadata, odata.FullMetadata} {
			if d.ContentType(l) != l.ContentType() || d.NoContentType(k, l) != "" {
				t.Errorf("%v %v: media type differs", k, l)
			}
		}
	}
	if m := d.IfMatch(op.Delete, false, store.Match{}); m.Kind != store.MatchNone {
		t.Errorf("a delete without If-Match is taken as %v", m.Kind)
	}
	if top := d.Top(1001, "5000"); top != 1001 {
		t.Errorf("$top=5000 read as %d", top)
	}
	if d.Error(e) != e || d.ErrorCode(e) != "" || !d.ErrorKeepsPreference() || d.BatchTooLarge(4<<20) {
		t.Error("an Azure error or limit differs")
	}
	if f := d.BatchForm([]byte("--batch_a\r\nContent-Type: multipart/mixed; boundary=changeset_b\r\n")); f != (Batch{}) || d.BatchCrashes(true, nil) {
		t.Errorf("batch layout %+v", f)
	}
	pk, rk := d.Continuation(&entity.Entity{PartitionKey: "p", RowKey: "r"})
	if pk != store.EncodeToken("p") || rk != store.EncodeToken("r") {
		t.Errorf("continuation %q %q", pk, rk)
	}
	// The service's body: its code, and the Time line with seven digits.
	if body, ct := d.ErrorBody(e, "id", time.Unix(0, 0), odata.NoMetadata); ct != odata.NoMetadata.ContentType() ||
		!strings.Contains(string(body), `"code":"TableNotFound"`) || !strings.Contains(string(body), `RequestId:id\nTime:1970-01-01T00:00:00.0000000Z`) {
		t.Errorf("error body %s, %s", body, ct)
	}
}

// Each other profile's rows are read where their concern is decided.
func TestProfilesRowsRead(t *testing.T) {
	c := New(profile.Cosmos())
	if c.Absent(op.GetACL) == nil || c.Absent(op.GetStats) == nil || c.AbsentPreflight() == nil || c.Absent(op.Insert) != nil {
		t.Error("Cosmos's missing endpoints")
	}
	if c.Common().Version != "" || !c.Common().NoVersion || c.NoContentType(op.Delete, odata.MinimalMetadata) != "application/json" {
		t.Errorf("Cosmos's header fields: %+v", *c.Common())
	}
	if !c.BatchTooLarge(2<<20+1) || c.BatchTooLarge(2<<20) {
		t.Error("Cosmos's batch bound")
	}
	if _, rk := c.Continuation(&entity.Entity{PartitionKey: "p", RowKey: "r"}); rk != store.CosmosRowToken {
		t.Errorf("Cosmos's NextRowKey %q", rk)
	}
	a := New(profile.Azurite337())
	if a.Common().Server != "Azurite-Table/3.37.0" || a.Location() || !a.TableReadIsList() || a.StorageETag() {
		t.Error("Azurite's answer shape")
	}
	if a.Applied(op.Insert, "") != "return-content" || a.HonoursPrefer(op.Merge) || a.ErrorKeepsPreference() {
		t.Error("Azurite's Prefer")
	}
	if m := a.IfMatch(op.Delete, false, store.Match{}); m.Kind != store.MatchAny {
		t.Error("Azurite's delete without If-Match")
	}
	if a.Top(1001, "5000") != 1000 || a.Top(1001, "x") != 1001 {
		t.Error("Azurite's $top")
	}
	if f := a.BatchForm([]byte("--batch_a\r\nContent-Type: multipart/mixed; boundary=changeset_b\r\n")); f.Boundary != "batchresponse_a" || f.Changeset != "changesetresponse_b" || !f.Numbered {
		t.Errorf("Azurite's batch layout %+v", f)
	}
	if !a.BatchCrashes(false, []byte("--x\r\n")) || a.BatchCrashes(false, []byte("--batch_a\r\n")) {
		t.Error("Azurite's batch crash")
	}
	e := tableerr.New(tableerr.TableNotFound)
	if body, _ := a.ErrorBody(e, "id", time.Unix(0, 0), odata.NoMetadata); !strings.Contains(string(body), `Time:1970-01-01T00:00:00.000Z`) {
		t.Errorf("Azurite's error time: %s", body)
	}
	if _, ct := c.ErrorBody(e, "id", time.Unix(0, 0), odata.NoMetadata); ct != "application/json;odata=fullmetadata" {
		t.Errorf("Cosmos's error type %q", ct)
	}
}
