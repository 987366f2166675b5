// Package mac computes HMAC-SHA256, the Table service's request and SAS
// signatures. New picks the implementation by build: natively crypto/hmac,
// whose SHA-256 uses the processor's instructions; in the browser the
// plain-Go one here, because crypto/hmac and crypto/sha256 bring Go's FIPS
// module along (AES, SHA-3, SHA-512, a random generator): about 180 KB of
// app.wasm. A fuzz target holds the plain-Go one to crypto/hmac.
package mac
