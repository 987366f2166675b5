package rest

import (
	"net/url"
	"testing"
)

// queryValue finds comp exactly as url.URL.Query does, for the signature's
// canonical resource.
func TestQueryValueMatchesURLQuery(t *testing.T) {
	for _, raw := range []string{
		"", "comp=acl", "restype=service&comp=properties", "comp=", "comp", "a=1&comp=x&comp=y",
		"co%6Dp=stats", "comp=a%20b", "comp=a+b", "comp=%zz&comp=ok", "comp=x;y&comp=z", "&&comp=q&",
		"%zz=1&comp=2", "compx=1", "$filter=PartitionKey%20eq%20'a'&$top=5",
	} {
		u := url.URL{RawQuery: raw}
		want, wantOK := u.Query()["comp"]
		got, ok := queryValue(raw, "comp")
		if ok != wantOK || ok && got != want[0] {
			t.Errorf("%q: got %q %v, url.Query gives %q %v", raw, got, ok, want, wantOK)
		}
	}
}
