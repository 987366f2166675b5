package store

import (
	"strconv"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/tableerr"
)

// stalled is a clock that never moves: every Timestamp must still differ.
func stalled() Clock {
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	return func() time.Time { return at }
}

func newStore(t testing.TB, tables ...string) *Store {
	t.Helper()
	s := New(Options{Clock: stalled()})
	for _, n := range tables {
		if _, err := s.CreateTable(n); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func ent(pk, rk string, props ...entity.Property) *entity.Entity {
	return &entity.Entity{PartitionKey: pk, RowKey: rk, Properties: props}
}

func prop(name string, v edm.Value) entity.Property { return entity.Property{Name: name, Value: v} }

func i32(name string, v int) entity.Property { return prop(name, edm.Int32Value(int32(v))) }

func str(name, v string) entity.Property { return prop(name, edm.StringValue(v)) }

func code(err *tableerr.Error) tableerr.Code {
	if err == nil {
		return ""
	}
	return err.Code
}

func mustFilter(t testing.TB, s string) filter.Node {
	t.Helper()
	if s == "" {
		return nil
	}
	n, err := filter.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return n
}

func rk(i int) string { return strconv.Itoa(100000 + i) } // fixed width: string order = numeric order

// walk pages through a query and returns every entity seen and the page sizes.
func walk(t testing.TB, s *Store, table string, q Query, between func()) ([]*entity.Entity, []int) {
	t.Helper()
	var all []*entity.Entity
	var sizes []int
	for pages := 0; pages < 10000; pages++ {
		p, err := s.Query(table, q)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Entities...)
		sizes = append(sizes, len(p.Entities))
		if !p.More() {
			return all, sizes
		}
		q.NextPartitionKey, q.NextRowKey = p.NextPartitionKey, p.NextRowKey
		if between != nil {
			between()
		}
	}
	t.Fatal("query did not end")
	return nil, nil
}
