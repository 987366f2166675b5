package mac

// hmacSHA256 is a running HMAC-SHA256 (RFC 2104) in plain Go; it
// implements hash.Hash.
type hmacSHA256 struct {
	inner, outer digest
	ipad, opad   [blockSize]byte
}

// newHMAC returns a plain-Go HMAC-SHA256 keyed with key.
func newHMAC(key []byte) *hmacSHA256 {
	m := &hmacSHA256{}
	if len(key) > blockSize { // a long key is hashed first
		var d digest
		d.reset()
		d.write(key)
		key = d.sum(nil)
	}
	copy(m.ipad[:], key)
	copy(m.opad[:], key)
	for i := range m.ipad {
		m.ipad[i] ^= 0x36
		m.opad[i] ^= 0x5c
	}
	m.Reset()
	return m
}

// Write adds p to the message; it never fails.
func (m *hmacSHA256) Write(p []byte) (int, error) {
	m.inner.write(p)
	return len(p), nil
}

// Sum appends the MAC of the message so far to b; the message goes on.
func (m *hmacSHA256) Sum(b []byte) []byte {
	m.outer.reset()
	m.outer.write(m.opad[:])
	m.outer.write(m.inner.sum(nil))
	return m.outer.sum(b)
}

// Reset starts a new message with the same key.
func (m *hmacSHA256) Reset() {
	m.inner.reset()
	m.inner.write(m.ipad[:])
}

// Size is the MAC's length in bytes.
func (m *hmacSHA256) Size() int { return Size }

// BlockSize is the underlying hash's block length in bytes.
func (m *hmacSHA256) BlockSize() int { return blockSize }

// equal compares two MACs in time that depends on their lengths only, so
// that a timing does not reveal how much of a guess is right.
func equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	var diff byte
	for i := range a {
		diff |= a[i] ^ b[i]
	}
	return diff == 0
}
