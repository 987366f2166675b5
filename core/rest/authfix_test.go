package rest_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// sasGet reads an entity with a raw request whose query is sasQuery and
// returns the status and x-ms-error-code.
func sasGet(t *testing.T, f *fixture, table, sasQuery string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/"+rest.WellKnownAccount+"/"+table+"(PartitionKey='p',RowKey='seed')?"+sasQuery, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("x-ms-error-code")
}

func seeded(t *testing.T, table string) *fixture {
	t.Helper()
	f := newFixture(t)
	f.svc.CreateTable(ctx, table, nil)
	f.svc.NewClient(table).AddEntity(ctx, marshal(t, map[string]any{"PartitionKey": "p", "RowKey": "seed"}), nil)
	return f
}

func signedSAS(s rest.SAS) string {
	if s.Version == "" {
		s.Version = "2019-02-02"
	}
	s.Signature = rest.WellKnown().SignSAS(s)
	return s.Encode()
}

// A SAS is valid until se, with no grace: the clock-skew tolerance is for a
// request's date.
func TestSASExpiryHasNoGrace(t *testing.T) {
	f := seeded(t, "expiry")
	now := time.Now()
	for _, tc := range []struct {
		name   string
		expiry time.Time
		want   int
	}{
		{"expired ten minutes ago", now.Add(-10 * time.Minute), 403},
		{"expired a second ago", now.Add(-time.Second), 403},
		{"valid for a minute more", now.Add(time.Minute), 200},
	} {
		q := signedSAS(rest.SAS{Permissions: "r", Expiry: sasTime(tc.expiry), Table: "expiry"})
		if got, code := sasGet(t, f, "expiry", q); got != tc.want || got == 403 && code != "AuthenticationFailed" {
			t.Errorf("%s: %d %s, want %d", tc.name, got, code, tc.want)
		}
	}
}

// A SAS parameter given twice is refused: which of the two would count is
// ambiguous.
func TestSASDuplicateParametersRefused(t *testing.T) {
	f := seeded(t, "dups")
	q := signedSAS(rest.SAS{Permissions: "r", Expiry: sasTime(time.Now().Add(time.Hour)), Table: "dups"})
	if got, _ := sasGet(t, f, "dups", q); got != 200 {
		t.Fatalf("the token itself: %d", got)
	}
	sig := q[strings.Index(q, "sig="):]
	if i := strings.IndexByte(sig, '&'); i >= 0 {
		sig = sig[:i]
	}
	for _, extra := range []string{sig, "sp=raud", "tn=other", "se=2099-01-01"} {
		if got, code := sasGet(t, f, "dups", q+"&"+extra); got != 403 || code != "AuthenticationFailed" {
			t.Errorf("with %s twice: %d %s, want 403 AuthenticationFailed", extra[:strings.IndexByte(extra, '=')], got, code)
		}
	}
}

// spr=https is judged on the connection: an absolute-form https:// request
// target sent over plain HTTP is still plain HTTP.
func TestSASHTTPSOnlyJudgedOnTheConnection(t *testing.T) {
	f := seeded(t, "secure")
	q := signedSAS(rest.SAS{Permissions: "r", Expiry: sasTime(time.Now().Add(time.Hour)), Table: "secure", Protocol: "https"})
	host := strings.TrimPrefix(f.srv.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	target := "https://" + host + "/" + rest.WellKnownAccount + "/secure(PartitionKey='p',RowKey='seed')?" + q
	if _, err := conn.Write([]byte("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthorizationProtocolMismatch" {
		t.Errorf("absolute-form https target over HTTP: %d %s, want 403 AuthorizationProtocolMismatch", resp.StatusCode, resp.Header.Get("x-ms-error-code"))
	}
}

// Signatures are compared in constant time (hmac.Equal), never with == or
// != on their text or bytes: no comparison in the package's code may have
// a signature on either side, nor in core/sas's.
func TestSignaturesComparedInConstantTime(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	text, _ := filepath.Glob("../sas/*.go")
	files = append(files, text...)
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL && b.Op != token.NEQ {
				return true
			}
			checked++
			if isConstant(b.X) || isConstant(b.Y) {
				return true // a presence check ("" or nil) reveals nothing
			}
			for _, side := range []ast.Expr{b.X, b.Y} {
				if mentionsSignature(side) {
					t.Errorf("%s: a signature compared with %s", fset.Position(b.Pos()), b.Op)
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no comparisons found: wrong directory?")
	}
}

func isConstant(e ast.Expr) bool {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name == "nil"
	}
	_, ok := e.(*ast.BasicLit)
	return ok
}

// mentionsSignature reports whether an expression reads a signature: a name
// or field called Signature or sig, or a call computing one (SignSAS, Sign).
func mentionsSignature(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.Ident:
			switch v.Name {
			case "Signature", "sig", "SignSAS", "Sign":
				found = true
			}
		case *ast.BasicLit:
			return false
		}
		return true
	})
	return found
}
