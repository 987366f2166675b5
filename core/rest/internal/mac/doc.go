// Package mac computes HMAC-SHA256, the Table service's request and SAS
// signatures, in plain Go. The browser build signs and checks with it
// because crypto/hmac and crypto/sha256 bring Go's FIPS module along (AES,
// SHA-3, SHA-512, a random generator): about 180 KB of app.wasm. Native
// builds keep crypto/hmac, whose SHA-256 uses the processor's instructions.
package mac
