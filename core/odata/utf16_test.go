package odata

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestTextual(t *testing.T) {
	for body, bad := range map[string]bool{
		`{"a":"b"}`: false, `{"a":"\ud83d\ude00"}`: false, `{"a":"\\ud800"}`: false, `{"a":"\ufffd\u00e9"}`: false,
		`{"a":"\ud800"}`: true, `{"a":"\udc00"}`: true, `{"a":"\udfff"}`: true, `{"a":"\ud800\u0041"}`: true,
		`{"a":"\ud800"`: true, "{\"a\":\"\xff\"}": true, "{\"\xc0\x80\":1}": true, `{"\uDBFF\uDFFF":1}`: false,
	} {
		if got := textual([]byte(body)) != ""; got != bad {
			t.Errorf("%s: refused %v, want %v", body, got, bad)
		}
	}
}

// FuzzTextual: textual never panics; valid UTF-8 without a backslash is
// always text, and so is any string encoding/json writes (it never writes
// a lone surrogate).
func FuzzTextual(f *testing.F) {
	for _, s := range []string{`{"a":"\ud800"}`, `{"a":"\ud83d\ude00"}`, "\xff", `\`, `\u12`, `\\u`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		why := textual(b)
		if utf8.Valid(b) && !bytes.ContainsRune(b, '\\') && why != "" {
			t.Fatalf("%q refused: %s", b, why)
		}
		s := string(bytes.ToValidUTF8(b, nil))
		enc, _ := json.Marshal(map[string]string{s: s})
		if why := textual(enc); why != "" {
			t.Fatalf("encoding/json's %q refused: %s", enc, why)
		}
	})
}
