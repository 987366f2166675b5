package play

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
)

func newAccounts(changed *[]string) *Accounts {
	return NewAccounts(AccountsOptions{
		Clock:         func() time.Time { return at },
		Base:          func(name string) string { return "http://h/" + name },
		OnChange:      func(name string) { *changed = append(*changed, name) },
		AllowUnsigned: true,
	})
}

// run sends one operation through an account's Run and decodes the answer.
func run(t *testing.T, a *Account, op Operation) Ran {
	t.Helper()
	return decode[Ran](t, a.API.Run(mustJSON(op)))
}

func TestAccountsAreIndependent(t *testing.T) {
	var changed []string
	s := newAccounts(&changed)
	one, err := s.Create("")
	if err != nil || one.Name != "embed1" {
		t.Fatalf("create: %v %v", one, err)
	}
	two, _ := s.Create("")
	if r := run(t, one, Operation{Kind: "createTable", Table: "Only"}); r.Response.Status != 201 {
		t.Fatalf("create table: %+v", r)
	}
	if fmt.Sprint(changed) != "[embed1]" {
		t.Errorf("change notices %v, want [embed1]", changed)
	}
	for _, a := range []*Account{two, s.Get(rest.WellKnownAccount)} {
		r := run(t, a, Operation{Kind: "listTables", Level: "nometadata"})
		if r.Response.Body != `{"value":[]}` {
			t.Errorf("%s sees %s", a.Name, r.Response.Body)
		}
	}
	// Through the router, the path's account decides; a request signed for
	// one account is refused by another.
	req := decode[Request](t, one.API.RequestFor(mustJSON(Operation{Kind: "listTables", Level: "nometadata"})))
	for account, want := range map[string]int{"embed1": 200, "embed2": 403, "nosuch": 404} {
		r := httptest.NewRequest(req.Method, strings.Replace(req.URL, "/embed1/", "/"+account+"/", 1), nil)
		for _, h := range req.Headers {
			r.Header.Set(h[0], h[1])
		}
		w := httptest.NewRecorder()
		resthttp.New(s.Router()).ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("%s: %d %s, want %d", account, w.Code, w.Body, want)
		}
	}
	if err := s.Drop("embed1"); err != nil {
		t.Fatal(err)
	}
	if s.Get("embed1") != nil || s.Router().Lookup("embed1") != nil {
		t.Error("a dropped account is still reachable")
	}
	if err := s.Drop("embed1"); !errors.Is(err, ErrNoAccount) {
		t.Errorf("drop twice: %v", err)
	}
	if err := s.Drop(rest.WellKnownAccount); !errors.Is(err, ErrKeepAccount) {
		t.Errorf("drop the well-known account: %v", err)
	}
}

func TestAccountNamesAndLimit(t *testing.T) {
	var changed []string
	s := newAccounts(&changed)
	for _, bad := range []string{"ab", "Upper", "has-dash", strings.Repeat("a", 25), "devstoreaccount1"} {
		if _, err := s.Create(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	if _, err := s.Create("abc"); err != nil {
		t.Fatal(err)
	}
	for i := 2; i < MaxAccounts; i++ {
		if _, err := s.Create(""); err != nil {
			t.Fatalf("account %d: %v", i, err)
		}
	}
	if _, err := s.Create(""); !errors.Is(err, ErrTooMany) {
		t.Errorf("account %d: %v, want ErrTooMany", MaxAccounts+1, err)
	}
}

func TestRunQueryOnce(t *testing.T) {
	var changed []string
	s := newAccounts(&changed)
	a := s.Get(rest.WellKnownAccount)
	run(t, a, Operation{Kind: "createTable", Table: "Tbl"})
	for i := range 30 {
		pk := "a"
		if i%3 == 0 {
			pk = "b"
		}
		e := &Draft{PartitionKey: ptr(pk), RowKey: ptr(fmt.Sprintf("%02d", i)), Properties: []Row{{Name: "N", Type: "Int32", Text: fmt.Sprint(i)}}}
		if r := run(t, a, Operation{Kind: "insert", Table: "Tbl", Entity: e}); r.Response.Status != 201 {
			t.Fatalf("insert: %+v", r.Response)
		}
		if r := run(t, a, Operation{Kind: "insert", Table: "Tbl", Entity: e}); r.Stats != nil {
			t.Fatalf("a write carries query figures: %+v", r.Stats)
		}
	}
	op := Operation{Kind: "query", Table: "Tbl", Filter: ptr("PartitionKey eq 'a' and N gt 5"), Top: 5}
	r := run(t, a, op)
	if r.Response.Status != 200 || r.Stats == nil {
		t.Fatalf("%+v", r)
	}
	var body struct{ Value []json.RawMessage }
	json.Unmarshal([]byte(r.Response.Body), &body)
	stats := decode[rest.QueryStats](t, a.API.QueryStats(mustJSON(op)))
	if *r.Stats != stats || r.Stats.Returned != len(body.Value) || !r.Stats.More {
		t.Errorf("run says %+v, QueryStats %+v, body has %d", *r.Stats, stats, len(body.Value))
	}
	next := ""
	for _, h := range r.Response.Headers {
		if strings.EqualFold(h[0], "x-ms-continuation-NextPartitionKey") {
			next = h[1]
		}
	}
	if next == "" {
		t.Errorf("no continuation header in %v", r.Response.Headers)
	}
	if r := run(t, a, Operation{Kind: "query", Table: "Tbl", Filter: ptr("N eq")}); r.Response.Status != 400 || r.Stats != nil {
		t.Errorf("a bad filter: %+v", r)
	}
	if r := run(t, a, Operation{Kind: "nonsense"}); r.Error == "" || r.Response != nil {
		t.Errorf("an unknown operation: %+v", r)
	}
}
