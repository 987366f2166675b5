package main

import (
	"net/http"
	"time"
)

// limits bound what one connection can hold: a body trickled in byte by byte
// is cut off after read, a slow reader of a response after write, an idle
// keep-alive connection after idle, and a request's line and headers at
// headerBytes.
type limits struct {
	readHeader, read, write, idle time.Duration
	headerBytes                   int
}

// defaultLimits leave room for the largest request the service accepts (a
// 4 MiB batch) on a slow link and for the page's files, and no more.
var defaultLimits = limits{
	readHeader:  10 * time.Second,
	read:        60 * time.Second,
	write:       60 * time.Second,
	idle:        30 * time.Second,
	headerBytes: 64 << 10,
}

// newHTTPServer is the native server's http.Server with its limits.
func newHTTPServer(h http.Handler, l limits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.headerBytes,
	}
}
