package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tableplay/tableplay/core/rest"
	"software.sslmate.com/src/go-pkcs12"
)

// tlsConfig loads the server's certificate as Azurite takes it: --cert
// and --key, PEM files, or --cert and --pwd, a PFX (PKCS #12) file and its
// password. TLS 1.2 is the oldest version offered, as on the service.
// go-pkcs12 decodes PFX files: Go's standard library has no decoder, and
// golang.org/x/crypto/pkcs12 is frozen and reads only the legacy RC2 and
// 3DES encryptions, not the AES-256 that OpenSSL 3 and .NET write today.
func tlsConfig(cert, key, pwd string) (*tls.Config, error) {
	var pair tls.Certificate
	switch {
	case cert == "" && (key != "" || pwd != ""):
		return nil, errors.New("--key and --pwd need --cert")
	case key != "" && pwd != "":
		return nil, errors.New("--cert takes --key (PEM) or --pwd (PFX), not both")
	case key != "":
		p, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("--cert %s --key %s: %v", cert, key, err)
		}
		pair = p
	case strings.HasSuffix(strings.ToLower(cert), ".pem") || strings.HasSuffix(strings.ToLower(cert), ".crt"):
		return nil, fmt.Errorf("--cert %s: a PEM certificate needs --key", cert)
	default:
		p, err := loadPFX(cert, pwd)
		if err != nil {
			return nil, fmt.Errorf("--cert %s --pwd: %v", cert, err)
		}
		pair = p
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

// maxPFX bounds the PFX file read (a certificate chain and a key are a few
// kilobytes).
const maxPFX = 1 << 20

// loadPFX reads a PFX file's key, certificate and chain.
func loadPFX(path, pwd string) (tls.Certificate, error) {
	info, err := os.Stat(path)
	if err != nil {
		return tls.Certificate{}, err
	}
	if info.Size() > maxPFX {
		return tls.Certificate{}, errors.New("larger than 1 MiB: not a PFX file")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return tls.Certificate{}, err
	}
	key, leaf, chain, err := pkcs12.DecodeChain(b, pwd)
	if err != nil {
		return tls.Certificate{}, err
	}
	c := tls.Certificate{PrivateKey: key, Leaf: leaf, Certificate: [][]byte{leaf.Raw}}
	for _, ca := range chain {
		c.Certificate = append(c.Certificate, ca.Raw)
	}
	if _, err := x509.ParseCertificate(leaf.Raw); err != nil {
		return tls.Certificate{}, err
	}
	return c, nil
}

// forwarded takes the scheme a proxy in front saw (--trust-forwarded):
// a request whose X-Forwarded-Proto is https is judged as one that came
// over HTTPS (a SAS limited to spr=https, a bearer token, the URLs in
// answers). Only for a server that a proxy alone can reach: any client
// can send the header.
type forwarded struct {
	next rest.HeadServer
}

// secure marks a request the proxy received over HTTPS.
func secure(r *rest.Request) {
	if p := r.Header.Get("X-Forwarded-Proto"); strings.EqualFold(strings.TrimSpace(strings.Split(p, ",")[0]), "https") {
		r.TLS = true
	}
}

// Handle answers a request with its forwarded scheme.
func (f forwarded) Handle(w rest.ResponseWriter, header rest.Header, r rest.Request) {
	secure(&r)
	f.next.Handle(w, header, r)
}

// HandleHead begins a request with its forwarded scheme.
func (f forwarded) HandleHead(w rest.ResponseWriter, header rest.Header, r rest.Request) func(rest.Request) {
	secure(&r)
	return f.next.HandleHead(w, header, r)
}
