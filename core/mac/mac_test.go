package mac

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestRFC4231 checks the published HMAC-SHA256 test cases (RFC 4231, 4.2
// to 4.8; case 5's truncated output left out).
func TestRFC4231(t *testing.T) {
	rep := func(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }
	for i, c := range []struct {
		key, data []byte
		want      string
	}{
		{rep(0x0b, 20), []byte("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{[]byte("Jefe"), []byte("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{rep(0xaa, 20), rep(0xdd, 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25}, rep(0xcd, 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
		{rep(0xaa, 131), []byte("Test Using Larger Than Block-Size Key - Hash Key First"), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
		{rep(0xaa, 131), []byte("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."), "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
	} {
		m := newHMAC(c.key)
		m.Write(c.data)
		if got := hex.EncodeToString(m.Sum(nil)); got != c.want {
			t.Errorf("case %d: %s, want %s", i+1, got, c.want)
		}
	}
}

// FuzzMAC holds the plain-Go HMAC to crypto/hmac with crypto/sha256 for any key and any
// message written in two pieces, summed midway and after a Reset.
func FuzzMAC(f *testing.F) {
	f.Add([]byte("key"), []byte("message"), 3)
	f.Add([]byte(strings.Repeat("k", 200)), []byte(strings.Repeat("m", 1000)), 64)
	f.Add([]byte{}, []byte{}, 0)
	f.Fuzz(func(t *testing.T, key, msg []byte, cut int) {
		if cut < 0 || cut > len(msg) {
			cut = len(msg) / 2
		}
		got, want := newHMAC(key), hmac.New(sha256.New, key)
		for _, h := range []interface{ Write([]byte) (int, error) }{got, want} {
			h.Write(msg[:cut])
		}
		if g, w := got.Sum([]byte("x")), want.Sum([]byte("x")); string(g) != string(w) {
			t.Fatalf("midway: %x, want %x", g, w)
		}
		got.Write(msg[cut:])
		want.Write(msg[cut:])
		if g, w := got.Sum(nil), want.Sum(nil); !equal(g, w) {
			t.Fatalf("%x, want %x", g, w)
		}
		got.Reset()
		want.Reset()
		got.Write(msg)
		want.Write(msg)
		if g, w := got.Sum(nil), want.Sum(nil); string(g) != string(w) {
			t.Fatalf("after Reset: %x, want %x", g, w)
		}
	})
}

// TestEqual checks the plain-Go comparison and the one this build's Equal
// uses.
func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"", "", true}, {"ab", "ab", true}, {"ab", "ac", false}, {"ab", "abc", false}, {"\x00", "\x80", false}} {
		if equal([]byte(c.a), []byte(c.b)) != c.want || Equal([]byte(c.a), []byte(c.b)) != c.want {
			t.Errorf("Equal(%q, %q) != %v", c.a, c.b, c.want)
		}
	}
}

// TestNew: the HMAC this build's New gives agrees with the plain-Go one.
func TestNew(t *testing.T) {
	for _, key := range [][]byte{nil, []byte("key"), []byte(strings.Repeat("k", 200))} {
		got, want := New(key), newHMAC(key)
		got.Write([]byte("message"))
		want.Write([]byte("message"))
		if g, w := got.Sum(nil), want.Sum(nil); string(g) != string(w) || len(g) != Size {
			t.Errorf("key %q: %x, want %x", key, g, w)
		}
	}
}
