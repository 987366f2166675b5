package codegen_test

import (
	"encoding/json"
	"go/format"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/codegen"
	"github.com/tableplay/tableplay/core/play"
)

func typed(t *testing.T, o pageOp) codegenInput {
	t.Helper()
	b, _ := json.Marshal(o)
	op, err := play.TypedOperation(b)
	if err != nil {
		t.Fatal(err)
	}
	return codegenInput{op}
}

// TestEveryKindEveryLanguage generates code for every case in every
// language: never an error, never empty, the connection string written out.
func TestEveryKindEveryLanguage(t *testing.T) {
	for _, c := range runCases() {
		in := typed(t, c.op)
		for _, lang := range codegen.Languages() {
			s, err := codegen.For(in.op, lang, codegen.Options{})
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, lang, err)
			}
			if s.Language != lang || s.Notes == nil {
				t.Errorf("%s/%s: language %q, notes %v", c.name, lang, s.Language, s.Notes)
			}
			want := codegen.WellKnownEndpoint
			if !strings.Contains(s.Code, want) {
				t.Errorf("%s/%s: the code does not name %s", c.name, lang, want)
			}
			if lang == codegen.Go {
				if formatted, err := format.Source([]byte(s.Code)); err != nil || string(formatted) != s.Code {
					t.Errorf("%s: generated Go is not gofmt-ed (%v)", c.name, err)
				}
			}
		}
	}
}

func TestUnknownLanguage(t *testing.T) {
	in := typed(t, pageOp{Kind: "createTable", Table: "T"})
	if _, err := codegen.For(in.op, "cobol", codegen.Options{}); err == nil {
		t.Fatal("an unknown language was accepted")
	}
}

// TestCurlWithoutSASMarksThePlaceholder: without a signed SAS, the script
// says what to put in its place.
func TestCurlWithoutSASMarksThePlaceholder(t *testing.T) {
	in := typed(t, pageOp{Kind: "getTable", Table: "T"})
	s, err := codegen.For(in.op, codegen.Curl, codegen.Options{})
	if err != nil || !strings.Contains(s.Code, "SAS='<account SAS>'") {
		t.Fatalf("%v\n%s", err, s.Code)
	}
}

// TestNotesNameTheLossyCases: for the entity with every type, each language
// names the cases where it loses or changes data.
func TestNotesNameTheLossyCases(t *testing.T) {
	in := typed(t, entityOp("insert", allTypes("p", "r")))
	want := map[string][]string{
		codegen.Go:         {"EDMInt64", "20.0 as 20", "100 ns", "EDMBinary", "EDMGUID"},
		codegen.JavaScript: {"2^53", "9007199254740992", "finer than a millisecond", "indistinguishable from an Int32", "Uint8Array", "Guid"},
		codegen.Python:     {"EdmType.INT64", "microseconds", "100 ns digit", "bytes", "uuid.UUID"},
		codegen.CSharp:     {"no .NET toolchain", "golden files written by hand", "long", "DateTimeOffset", "byte[]", "System.Guid"},
		codegen.Curl:       {"well-known key", "annotated"},
	}
	for lang, phrases := range want {
		s, err := codegen.For(in.op, lang, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(s.Notes, "\n")
		for _, p := range phrases {
			if !strings.Contains(all, p) {
				t.Errorf("%s notes lack %q:\n%s", lang, p, all)
			}
		}
	}
	// An entity without those types gets none of their notes.
	plain := typed(t, entityOp("insert", small("p", "r", "1")))
	s, _ := codegen.For(plain.op, codegen.JavaScript, codegen.Options{})
	if strings.Contains(strings.Join(s.Notes, " "), "2^53") {
		t.Errorf("notes for an entity without Int64: %v", s.Notes)
	}
}
