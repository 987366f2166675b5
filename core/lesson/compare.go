package lesson

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tableplay/tableplay/core/play"
)

// Compare lists how an outcome differs from what a step expects, one line a
// difference; only what the expectation sets is compared. body is the answer
// body the Contains texts must appear in.
func Compare(want, got Expect, body string) []string {
	var d []string
	diff := func(what string, w, g any) {
		d = append(d, fmt.Sprintf("%s: expected %v, got %v", what, w, g))
	}
	if want.Status != 0 && want.Status != got.Status {
		diff("status", want.Status, got.Status)
	}
	if want.Code != got.Code && (want.Code != "" || want.Status != 0) {
		diff("error code", quote(want.Code), quote(got.Code))
	}
	if want.Valid != nil && (got.Valid == nil || *want.Valid != *got.Valid) {
		diff("valid", *want.Valid, deref(got.Valid))
	}
	if want.Rules != nil && !equal(want.Rules, got.Rules) {
		diff("rules", want.Rules, got.Rules)
	} else if want.Rules == nil && want.Valid != nil && !*want.Valid && len(got.Rules) > 0 {
		diff("rules", "(listed)", got.Rules)
	}
	ints := []struct {
		what      string
		want, got *int
	}{{"size", want.Size, got.Size}, {"count", want.Count, got.Count}, {"scanned", want.Scanned, got.Scanned},
		{"returned", want.Returned, got.Returned}, {"failedIndex", want.FailedIndex, got.FailedIndex}}
	for _, n := range ints {
		if n.want != nil && (n.got == nil || *n.want != *n.got) {
			diff(n.what, *n.want, deref(n.got))
		}
	}
	if want.Canonical != "" && want.Canonical != got.Canonical {
		diff("canonical", quote(want.Canonical), quote(got.Canonical))
	}
	if want.RowKeys != nil && !equal(want.RowKeys, got.RowKeys) {
		diff("rowKeys", want.RowKeys, got.RowKeys)
	}
	if want.More != nil && (got.More == nil || *want.More != *got.More) {
		diff("more", *want.More, deref(got.More))
	}
	if want.Annotated != nil && (got.Annotated == nil || !equal(*want.Annotated, *got.Annotated)) {
		diff("annotated", *want.Annotated, deref(got.Annotated))
	}
	for _, c := range want.Contains {
		if !strings.Contains(body, c) {
			d = append(d, fmt.Sprintf("body: expected it to contain %q", c))
		}
	}
	if want.Entity != nil {
		d = append(d, compareEntity(*want.Entity, got.Entity)...)
	}
	return d
}

// compareEntity compares an entity's state by property name, with type names
// read as the editor reads them ("" is Edm.String, "Int64" is Edm.Int64).
func compareEntity(want EntityAfter, got *EntityAfter) []string {
	if got == nil {
		return []string{"entity: the step names no entity"}
	}
	if want.Absent || got.Absent {
		if want.Absent != got.Absent {
			return []string{fmt.Sprintf("entity: expected absent=%v, got absent=%v", want.Absent, got.Absent)}
		}
		return nil
	}
	w, g := rows(want.Properties), rows(got.Properties)
	if !equal(w, g) {
		return []string{fmt.Sprintf("entity: expected %v, got %v", w, g)}
	}
	return nil
}

func rows(rs []play.Row) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		t := r.Type
		if t == "" {
			t = "String"
		}
		out[i] = r.Name + ":" + strings.TrimPrefix(t, "Edm.") + "=" + r.Text
	}
	sort.Strings(out)
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

func deref[T any](p *T) any {
	if p == nil {
		return "(nothing)"
	}
	return *p
}
