package odata

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// jsonDepth is the nesting depth of valid JSON by encoding/json's token
// stream (a reference independent of WithinDepth's scan).
func jsonDepth(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	depth, max := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return max
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '[' || d == '{' {
				depth++
				max = maxInt(max, depth)
			} else {
				depth--
			}
		}
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func TestWithinDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want bool
	}{
		{`{"a":1}`, 1, true},
		{`{"a":[1]}`, 1, false},
		{`{"a":"[[[[["}`, 1, true},
		{`{"a\"[[":"\\"}`, 1, true},
		{strings.Repeat("[", 64) + strings.Repeat("]", 64), 64, true},
		{strings.Repeat("[", 65), 64, false},
		{strings.Repeat(`{"a":`, 65), 64, false},
	} {
		if got := WithinDepth([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("WithinDepth(%.40q, %d) = %v", tc.in, tc.max, got)
		}
	}
}

// An entity body nested deeper than MaxDepth is refused before gjson's
// recursive validator sees it, with the service's InvalidInput.
func TestDeepBodiesRefusedFirst(t *testing.T) {
	body := []byte(strings.Repeat("[", 4<<20))
	if _, err := DecodeEntity(body); err == nil || err.Code != "InvalidInput" {
		t.Fatalf("4 MiB of '[': %v", err)
	}
	if _, err := DecodeTableName(body, profile.StorageTableNames); err == nil || err.Code != "InvalidInput" {
		t.Fatalf("table name, 4 MiB of '[': %v", err)
	}
}

// The refusal of a body nested past MaxDepth costs what its first
// MaxDepth+1 openers cost, whatever follows: 4 MiB of '[' (issue 40's
// hostile body) allocates as 65 of them do, a few hundred bytes at most,
// through every decoder a request body meets. (Its CPU time, through the
// server, is BenchmarkFrontHostileBody's in cmd/tableplay.)
func TestDeepBodyCostIsItsPrefix(t *testing.T) {
	short := []byte(strings.Repeat("[", MaxDepth+1))
	long := []byte(strings.Repeat("[", 4<<20))
	for _, d := range []struct {
		name   string
		decode func([]byte) *tableerr.Error
	}{
		{"DecodeEntity", func(b []byte) *tableerr.Error { _, err := DecodeEntity(b); return err }},
		{"DecodeEntityText", func(b []byte) *tableerr.Error { _, err := DecodeEntityText(b, string(b[:0])); return err }},
		{"DecodeDraft", func(b []byte) *tableerr.Error { _, err := DecodeDraft(b); return err }},
		{"DecodeTableName", func(b []byte) *tableerr.Error { _, err := DecodeTableName(b, profile.StorageTableNames); return err }},
	} {
		if err := d.decode(long); err == nil || err.Code != "InvalidInput" {
			t.Errorf("%s, 4 MiB of '[': %v", d.name, err)
		}
		allocs := func(b []byte) (float64, uint64) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			n := testing.AllocsPerRun(5, func() { d.decode(b) })
			runtime.ReadMemStats(&after)
			return n, (after.TotalAlloc - before.TotalAlloc) / 6
		}
		ns, bs := allocs(short)
		nl, bl := allocs(long)
		// Measured: 2 allocations of 176 bytes for either (the error).
		if nl > 4 || bl > 1024 {
			t.Errorf("%s: 4 MiB of '[' makes %v allocations of %d bytes; %d of them make %v of %d", d.name, nl, bl, len(short), ns, bs)
		}
		t.Logf("%s: %v allocations, %d bytes (4 MiB of '['); %v, %d (%d)", d.name, nl, bl, ns, bs, len(short))
	}
}

// FuzzDeepBodiesRefused: whatever follows MaxDepth+1 openers (arrays,
// objects, or both), every decoder refuses the body with InvalidInput, and
// WithinDepth says no.
func FuzzDeepBodiesRefused(f *testing.F) {
	for _, s := range []string{"", "]]]]", `"\\"`, strings.Repeat("[", 4096), `}{"a":1}`} {
		f.Add(uint8(0), []byte(s))
		f.Add(uint8(1), []byte(s))
		f.Add(uint8(2), []byte(s))
	}
	f.Fuzz(func(t *testing.T, kind uint8, rest []byte) {
		opener := []string{"[", `{"a":`, `[{"b":`}[kind%3]
		body := append([]byte(strings.Repeat(opener, MaxDepth+1)), rest...)
		if WithinDepth(body, MaxDepth) {
			t.Fatalf("WithinDepth(%.60q…) = true", body)
		}
		if _, err := DecodeEntity(body); err == nil || err.Code != "InvalidInput" {
			t.Fatalf("DecodeEntity(%.60q…): %v", body, err)
		}
		if _, err := DecodeDraft(body); err == nil || err.Code != "InvalidInput" {
			t.Fatalf("DecodeDraft(%.60q…): %v", body, err)
		}
		if _, err := DecodeTableName(body, profile.StorageTableNames); err == nil || err.Code != "InvalidInput" {
			t.Fatalf("DecodeTableName(%.60q…): %v", body, err)
		}
	})
}

func FuzzWithinDepth(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"]"}]}`, `"\\"`, `[[]]`, `{"a\"":[]}`, strings.Repeat("[", 70), `]]]][`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, max := range []int{0, 1, 2, 5} {
			got := WithinDepth(b, max)
			if json.Valid(b) && got != (jsonDepth(b) <= max) {
				t.Fatalf("WithinDepth(%q, %d) = %v, depth %d", b, max, got, jsonDepth(b))
			}
		}
	})
}

// The property limit is checked before annotations are matched and values
// typed: a body of 300 annotated properties whose values do not parse is
// refused for its count, in one linear pass.
func TestPropertyLimitCheckedBeforeMatching(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"PartitionKey":"p","RowKey":"r"`)
	for i := 0; i < 300; i++ {
		n := "p" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa3(i)
		b.WriteString(`,"` + n + `@odata.type":"Edm.Int64","` + n + `":"not a number"`)
	}
	b.WriteString("}")
	_, err := DecodeEntity([]byte(b.String()))
	if err == nil || err.Code != "TooManyProperties" || err.Rule.Measure == nil || err.Rule.Measure.Value != 303 {
		t.Fatalf("300 annotated properties: %+v", err)
	}
}

func itoa3(i int) string {
	return string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}
