//go:build js

package rest

import (
	"hash"

	"github.com/tableplay/tableplay/core/rest/internal/mac"
)

// newMAC returns an HMAC-SHA256 keyed with key: in the browser the plain-Go
// one, which keeps Go's FIPS module out of app.wasm.
func newMAC(key []byte) hash.Hash { return mac.New(key) }

// macEqual compares signatures in constant time.
func macEqual(a, b []byte) bool { return mac.Equal(a, b) }
