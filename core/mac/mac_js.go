//go:build js

package mac

import "hash"

// New returns an HMAC-SHA256 keyed with key: in the browser the plain-Go
// one, which keeps Go's FIPS module out of app.wasm.
func New(key []byte) hash.Hash { return newHMAC(key) }

// Equal compares signatures in constant time.
func Equal(a, b []byte) bool { return equal(a, b) }
