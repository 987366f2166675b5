//go:build !js

package mac

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// New returns an HMAC-SHA256 keyed with key: natively crypto/hmac, whose
// SHA-256 uses the processor's instructions.
func New(key []byte) hash.Hash { return hmac.New(sha256.New, key) }

// Equal compares signatures in constant time.
func Equal(a, b []byte) bool { return hmac.Equal(a, b) }
