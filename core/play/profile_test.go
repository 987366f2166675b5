package play

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
)

func TestSetProfileKeepsTheAccount(t *testing.T) {
	var changed []string
	s := newAccounts(&changed)
	main := s.Get(rest.WellKnownAccount)
	if r := run(t, main, Operation{Kind: "createTable", Table: "People"}); r.Response.Status != 201 {
		t.Fatalf("create: %+v", r)
	}
	if r := run(t, main, Operation{Kind: "createTable", Table: "people"}); r.Response.Status != 409 {
		t.Fatalf("azure folds case: %+v", r)
	}
	if err := s.SetProfile(rest.WellKnownAccount, profile.Cosmos()); err != nil {
		t.Fatal(err)
	}
	main = s.Get(rest.WellKnownAccount)
	if main.Store.Profile().Name != "cosmos" {
		t.Fatalf("profile %q", main.Store.Profile().Name)
	}
	if r := run(t, main, Operation{Kind: "createTable", Table: "people"}); r.Response.Status != 201 {
		t.Fatalf("cosmos keeps case: %+v", r)
	}
	// The router answers as the new profile, the well-known account being
	// its fallback too: Cosmos's bare media type.
	w := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/"+rest.WellKnownAccount+"/Tables", nil)
	req.Header.Set("Accept", "application/json;odata=nometadata")
	resthttp.New(s.Router()).ServeHTTP(w, req)
	if ct := w.Header().Get("Content-Type"); ct != "application/json;odata=nometadata" || !strings.Contains(w.Body.String(), `"People"`) {
		t.Fatalf("after the switch: %s %s", ct, w.Body)
	}
	// Back to azure would fold People and people into one: refused, and
	// the account stays as it was.
	if err := s.SetProfile(rest.WellKnownAccount, profile.Azure()); !errors.Is(err, ErrProfileKeep) {
		t.Fatalf("to azure with People and people: %v", err)
	}
	if s.Get(rest.WellKnownAccount).Store.Profile().Name != "cosmos" {
		t.Fatal("a refused switch changed the account")
	}
	if err := s.SetProfile("nosuch", profile.Cosmos()); err != ErrNoAccount {
		t.Fatalf("unknown account: %v", err)
	}
	two, err := s.CreateAs("", profile.Cosmos())
	if err != nil || two.Store.Profile().Name != "cosmos" {
		t.Fatalf("CreateAs: %v", err)
	}
}

// TestCardsSayWhereProfilesDiffer: a rule card carries the profiles'
// differences for its rule, in the profile package's words.
func TestCardsSayWhereProfilesDiffer(t *testing.T) {
	a := newAPI("http://h/devstoreaccount1")
	props := make([]Row, 253)
	for i := range props {
		props[i] = Row{Name: "P" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + strings.Repeat("0", i/26), Type: "Int32", Text: "1"}
	}
	r := decode[EntityReport](t, a.ValidateEntity(mustJSON(Draft{PartitionKey: ptr("p"), RowKey: ptr("r"), Properties: props})))
	var card *Card
	for i := range r.Violations {
		if r.Violations[i].Rule != nil && r.Violations[i].Rule.ID == "too-many-properties" {
			card = &r.Violations[i]
		}
	}
	if card == nil {
		t.Fatalf("no too-many-properties card: %+v", r.Violations)
	}
	if len(card.Profiles) != 1 || card.Profiles[0].ID != "F-PROPERTY-COUNT" || !strings.Contains(card.Profiles[0].Sentence, "Azurite 3.37 accepts") {
		t.Fatalf("card profiles %+v", card.Profiles)
	}
	if raw := string(a.ValidateTableName("Customers")); strings.Contains(raw, `"profiles"`) {
		t.Fatalf("a valid name has no card: %s", raw)
	}
	if raw := string(a.ValidateTableName("tables")); !strings.Contains(raw, "F-AZURITE-EMPTY-CODE") {
		t.Fatalf("reserved name: %s", raw)
	}
}
