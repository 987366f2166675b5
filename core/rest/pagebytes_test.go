//go:build !js

package rest_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/store"
)

// Every query page is within rest.MaxPageBody bytes at every metadata level
// and with a $select of absent names, however much larger than its
// entities' sizes the text is; a page cut by bytes continues exactly where
// it stopped: every entity comes once, in key order (F-PAGE-BYTES).
func TestQueryPagesBoundByBytesWritten(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	smallEntities(t, st)
	expandingEntities(t, st)
	h := unsignedHandler(st)
	wide := url.Values{"$select": {absentNames(250, 250)}}
	first := `"` + strings.Split(wide.Get("$select"), ",")[0] + `":null`
	for _, c := range []struct {
		table, level string
		query        url.Values
		minPages     int
	}{
		{"full", "fullmetadata", nil, 6},
		{"full", "minimalmetadata", nil, 2},
		{"full", "nometadata", nil, 1},
		{"full", "fullmetadata", url.Values{"$select": {"RowKey,d1"}}, 1},
		{"sel", "fullmetadata", wide, 15},
		{"sel", "minimalmetadata", wide, 15},
		{"sel", "nometadata", wide, 15},
	} {
		var keys []string
		pages := 0
		next := url.Values{}
		for pages < 100 {
			q := url.Values{}
			for k, v := range c.query {
				q[k] = v
			}
			for k, v := range next {
				q[k] = v
			}
			req := httptest.NewRequest("GET", "http://127.0.0.1/"+rest.WellKnownAccount+"/"+c.table+"()?"+q.Encode(), nil)
			req.Header.Set("Accept", "application/json;odata="+c.level)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			pages++
			if w.Code != 200 {
				t.Fatalf("%s %s page %d: %d %.200s", c.table, c.level, pages, w.Code, w.Body)
			}
			if w.Body.Len() > rest.MaxPageBody {
				t.Errorf("%s %s page %d: %d bytes, over %d", c.table, c.level, pages, w.Body.Len(), rest.MaxPageBody)
			}
			if c.table == "sel" {
				// Its $select leaves RowKey out; each entity has the
				// first name as a null.
				for range strings.Count(w.Body.String(), first) {
					keys = append(keys, "")
				}
			} else {
				var body struct{ Value []struct{ RowKey string } }
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
					t.Fatalf("%s %s page %d: %v", c.table, c.level, pages, err)
				}
				for _, e := range body.Value {
					keys = append(keys, e.RowKey)
				}
			}
			npk := w.Header().Get("x-ms-continuation-NextPartitionKey")
			if npk == "" {
				break
			}
			next = url.Values{"NextPartitionKey": {npk}, "NextRowKey": {w.Header().Get("x-ms-continuation-NextRowKey")}}
		}
		if len(keys) != 1000 || pages < c.minPages {
			t.Errorf("%s %s (%d bytes of options): %d entities in %d pages, want 1000 in at least %d", c.table, c.level, len(c.query.Encode()), len(keys), pages, c.minPages)
			continue
		}
		for i := 1; i < len(keys) && c.table != "sel"; i++ {
			if keys[i] <= keys[i-1] {
				t.Errorf("%s %s: entity %d (%s…) after %s…: not in key order once each", c.table, c.level, i, tail(keys[i]), tail(keys[i-1]))
				break
			}
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-8):] }

// A $select repeating a name, or naming system properties, writes each
// property once; absent names are nulls, in the order given.
func TestSelectRepeatsAndAbsentNames(t *testing.T) {
	st := store.New(store.Options{Clock: time.Now})
	smallEntities(t, st)
	h := unsignedHandler(st)
	for _, sel := range []string{"V,b,a,V,b,RowKey,c1,c2,c3,c4,c5,c6,c7,c8,c9,a", "b,V,a"} {
		req := httptest.NewRequest("GET", "http://127.0.0.1/"+rest.WellKnownAccount+"/sel()?$top=1&$select="+sel, nil)
		req.Header.Set("Accept", "application/json;odata=nometadata")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		want := `{"value":[{"RowKey":"10000","V":1,"b":null,"a":null,"c1":null,"c2":null,"c3":null,"c4":null,"c5":null,"c6":null,"c7":null,"c8":null,"c9":null}]}`
		if !strings.Contains(sel, "RowKey") {
			want = `{"value":[{"V":1,"b":null,"a":null}]}`
		}
		if w.Body.String() != want {
			t.Errorf("$select=%s:\n got %s\nwant %s", sel, w.Body, want)
		}
	}
}
