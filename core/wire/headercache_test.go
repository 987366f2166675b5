package wire

import (
	"bytes"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// FuzzHeaderCache: header blocks read one after another through a
// HeaderCache (from bytes, or from text) give what ReadHeader gives each
// on its own, errors included; a block reported the same is the last one
// again, and the fields reported changed are those whose values differ.
func FuzzHeaderCache(f *testing.F) {
	for _, s := range []string{
		"A: 1\r\nB: 2\r\n\r\nx\x00A: 1\r\nB: 2\r\n\r\ny\x00A: 1\r\nB: 3\r\n\r\nz\x00a: 9\r\nB: 3\r\n\r\n",
		"Content-Length: 10\r\nPrefer: x\r\n\r\n{}\x00Content-Length: 11\r\nPrefer: x\r\n\r\n{}\x00Content-Length: 11\r\nPrefer:  x \r\n\r\n",
		"A: 1\n\n\x00A: 2\n\n\x00A: 2\r\n\r\n\x00A: \x01\r\n\r\n\x00A: 3\r\n\r\n",
		"A: 1\r\n\r\n\x00A: 1\r\n b\r\n\r\n\x00A: 2\r\nA: 3\r\n\r\n\x00A: 4\r\nA: 5\r\n\r\n",
		"A: 1\r\n\r\n\x00A: 2\r\n\x00A: 2\r\nB: 1\r\n\r\n\x00A: 2\r\n\r\n\x00 A: 2\r\n\r\n",
		"Spaced Name: 1\r\nx-ms-version: a\r\n\r\n\x00Spaced Name: 2\r\nx-ms-version: b\r\n\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		blocks := strings.Split(s, "\x00")
		if len(blocks) > 20 {
			return
		}
		for _, fromText := range []bool{false, true} {
			var c HeaderCache
			var last []byte
			var prev Header
			for i, blk := range blocks {
				text := ""
				if fromText {
					text = blk
				}
				h, rest, how, keys, err := c.Read([]byte(blk), text, nil)
				want, wrest, werr := ReadHeader([]byte(blk))
				if (err == nil) != (werr == nil) || err != nil && Unterminated(err) != Unterminated(werr) {
					t.Fatalf("%q block %d: error %v, ReadHeader's %v", s, i, err, werr)
				}
				if (err == nil || Unterminated(err)) && (!reflect.DeepEqual(map[string][]string(h), map[string][]string(want)) || !bytes.Equal(rest, wrest)) {
					t.Fatalf("%q block %d (%v): %q %q, ReadHeader %q %q", s, i, how, h, rest, want, wrest)
				}
				switch how {
				case Same:
					if last == nil || !bytes.HasPrefix([]byte(blk), last) {
						t.Fatalf("%q block %d: the same as the last, which was %q", s, i, last)
					}
				case Values:
					var differ []string
					for k, v := range want {
						if !reflect.DeepEqual(prev[k], v) {
							differ = append(differ, k)
						}
					}
					sort.Strings(differ)
					got := append([]string(nil), keys...)
					sort.Strings(got)
					if len(prev) != len(want) || !reflect.DeepEqual(got, differ) {
						t.Fatalf("%q block %d: changed %q, the values that differ %q", s, i, got, differ)
					}
				}
				last = nil
				if err == nil {
					last = []byte(blk)[:len(blk)-len(rest)]
				}
				prev = nil
				if err == nil || Unterminated(err) {
					prev = map[string][]string{}
					for k, v := range want {
						prev[k] = append([]string(nil), v...)
					}
				}
			}
		}
	})
}
