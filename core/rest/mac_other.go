//go:build !js

package rest

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// newMAC returns an HMAC-SHA256 keyed with key: natively crypto/hmac, whose
// SHA-256 uses the processor's instructions.
func newMAC(key []byte) hash.Hash { return hmac.New(sha256.New, key) }

// macEqual compares signatures in constant time.
func macEqual(a, b []byte) bool { return hmac.Equal(a, b) }
