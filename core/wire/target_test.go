package wire

import (
	"net/url"
	"reflect"
	"testing"
)

// FuzzTargetURL checks the batch parts' request-target reader against
// url.ParseRequestURI, which it replaces: the same URL, or an error both ways.
func FuzzTargetURL(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1:10002/devstoreaccount1/t", "https://acct.table.core.windows.net/t(PartitionKey='a',RowKey='b')",
		"/devstoreaccount1/t()", "/t?$filter=x", "//x/y", "http://h/p%20q", "http://user@h/p", "HTTP://h/p", "http://h:/p",
		"http://h:80x/p", "http://[::1]:1/p", "http://h", "/", "http:///p", "http://:80/p", "/a b", "/a\x7f", "http://h/a#b",
		"http://h.-/p;x=1", "*", "http://h/\u00e9", "/t?", "/t??", "/t?a b", "/t?a#b",
		"http://127.0.0.1:10002/devstoreaccount1/t?%24format=application%2Fjson%3Bodata%3Dminimalmetadata",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var urls TargetURLs
		got, gerr := urls.Parse(s, 2)
		want, werr := url.ParseRequestURI(s)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, url.ParseRequestURI's %v", s, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %#v, url.ParseRequestURI gives %#v", s, *got, *want)
		}
	})
}
