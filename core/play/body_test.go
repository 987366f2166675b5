package play

import (
	"strings"
	"testing"
)

func TestParseBody(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[BodyReport](t, []byte(a.ParseBody(`{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Int64","N":"12","D":2.0,"bad":{"x":1}}`)))
	if r.Valid || r.Violations[0].Code != "InvalidInput" || r.Draft != nil {
		t.Errorf("object value: %+v", r)
	}
	r = decode[BodyReport](t, []byte(a.ParseBody(`{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Int64","N":"12","D":2.0,"G@odata.type":"Edm.Guid","G":"nope"}`)))
	if r.Valid || len(r.Violations) != 1 || r.Violations[0].Rule.ID != "value-invalid" || *r.Draft.PartitionKey != "p" {
		t.Fatalf("%+v", r)
	}
	rows := r.Draft.Properties
	if len(rows) != 3 || rows[0] != (Row{Name: "N", Type: "Edm.Int64", Text: "12"}) || rows[1] != (Row{Name: "D", Type: "Edm.Double", Text: "2.0"}) ||
		rows[2] != (Row{Name: "G", Type: "Edm.Guid", Text: "nope"}) {
		t.Errorf("rows %+v", rows)
	}
	// The round trip the editor makes: rows → report equal to the body's.
	back := decode[EntityReport](t, a.ValidateEntity(mustJSON(r.Draft)))
	if back.Size != r.Size || len(back.Violations) != 1 {
		t.Errorf("form and JSON disagree: %+v vs %+v", back, r.EntityReport)
	}
	r = decode[BodyReport](t, []byte(a.ParseBody(`{`)))
	if r.Valid || r.Violations[0].Code != "InvalidInput" {
		t.Errorf("bad JSON: %+v", r)
	}
}

func TestReadEntities(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	feed := `{"odata.metadata":"m","value":[{"odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00Z'\"","PartitionKey":"p","RowKey":"r","Timestamp":"2026-11-22T12:00:00Z","N@odata.type":"Edm.Int64","N":"12","D":2.0,"I":2,"B":true,"S":"x"}]}`
	got := decode[[]Listed](t, a.ReadEntities(feed))
	if len(got) != 1 || got[0].ETag != `W/"datetime'2026-11-22T12%3A00%3A00Z'"` || got[0].Timestamp != "2026-11-22T12:00:00Z" {
		t.Fatalf("%+v", got)
	}
	var types []string
	for _, r := range got[0].Draft.Properties {
		types = append(types, r.Name+":"+r.Type+"="+r.Text)
	}
	if strings.Join(types, ",") != "N:Edm.Int64=12,D:Edm.Double=2.0,I:Edm.Int32=2,B:Edm.Boolean=true,S:Edm.String=x" {
		t.Errorf("typed rows %v", types)
	}
	single := decode[[]Listed](t, a.ReadEntities(`{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-11-22T12:00:00Z","X":1}`))
	if len(single) != 1 || single[0].ETag != "" || single[0].Draft.Properties[0].Type != "Edm.Int32" {
		t.Errorf("%+v", single)
	}
	if !strings.Contains(string(a.ReadEntities("nope")), "error") {
		t.Error("not JSON")
	}
}

func TestDraftBodyRoundTrips(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	draft := Draft{PartitionKey: ptr("p"), RowKey: ptr("r"), Properties: []Row{
		{Name: "N", Type: "Int64", Text: "12"}, {Name: "D", Type: "Double", Text: "2"}, {Name: "I", Type: "Int32", Text: "7"},
		{Name: "Bad", Type: "Guid", Text: "nope"}, {Name: "T", Type: "Edm.Money", Text: "1"}, {Name: "S", Text: `a"b`},
	}}
	body := decode[map[string]string](t, a.DraftBody(mustJSON(draft)))["body"]
	want := `{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Int64","N":"12","D@odata.type":"Edm.Double","D":2.0,"I":7,"Bad@odata.type":"Edm.Guid","Bad":"nope","T@odata.type":"Edm.Money","T":"1","S":"a\"b"}`
	if body != want {
		t.Fatalf("\n got %s\nwant %s", body, want)
	}
	// Form → JSON → form keeps every row and gives the same violations.
	r := decode[BodyReport](t, []byte(a.ParseBody(body)))
	direct := decode[EntityReport](t, a.ValidateEntity(mustJSON(draft)))
	if len(r.Violations) != len(direct.Violations) {
		t.Errorf("violations differ: %+v vs %+v", r.Violations, direct.Violations)
	}
	if r.Draft == nil || len(r.Draft.Properties) != 6 || r.Draft.Properties[4] != (Row{Name: "T", Type: "Edm.Money", Text: "1"}) {
		t.Errorf("rows back: %+v", r.Draft)
	}
}

func TestParseBodyNotesUnannotatedDates(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[BodyReport](t, a.ParseBody(`{"PartitionKey":"p","RowKey":"r","Joined":"2024-05-01T10:00:00Z","Born":"2001-02-03T00:00:00Z","Born@odata.type":"Edm.DateTime","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Name":"Ada","Hash":"c9da6455213d42c99a793e9149a57833"}`))
	if !r.Valid || len(r.Notes) != 2 {
		t.Fatalf("%+v", r)
	}
	if r.Notes[0].Property != "Joined" || !strings.Contains(r.Notes[0].Says, `no "Joined@odata.type": "Edm.DateTime" annotation, so the service stores it as an Edm.String`) {
		t.Errorf("%+v", r.Notes[0])
	}
	if r.Notes[1].Property != "Id" || !strings.Contains(r.Notes[1].Says, "looks like a Guid") {
		t.Errorf("%+v", r.Notes[1])
	}
}

// TestParseBodyNotesBigNumbers: an unannotated whole number past Int32 is
// said to become a Double, and past 2^53 to lose its digits; written as a
// Double, annotated, or small enough for an Int32, it is not remarked on.
func TestParseBodyNotesBigNumbers(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	r := decode[BodyReport](t, a.ParseBody(`{"PartitionKey":"p","RowKey":"r","Big":9007199254740993,"Wide":3000000000,"Small":20,"Ratio":3000000000.0,"Typed":"9007199254740993","Typed@odata.type":"Edm.Int64","Neg":-9007199254740993}`))
	if !r.Valid || len(r.Notes) != 3 {
		t.Fatalf("%+v", r)
	}
	if n := r.Notes[0]; n.Property != "Big" || !strings.Contains(n.Says, "9007199254740992 is stored, not 9007199254740993") || !strings.Contains(n.Says, `"Big@odata.type": "Edm.Int64"`) {
		t.Errorf("%+v", n)
	}
	if n := r.Notes[1]; n.Property != "Wide" || !strings.Contains(n.Says, "stores it as an Edm.Double, not an Int64") {
		t.Errorf("%+v", n)
	}
	if n := r.Notes[2]; n.Property != "Neg" || !strings.Contains(n.Says, "-9007199254740992 is stored") {
		t.Errorf("%+v", n)
	}
}
