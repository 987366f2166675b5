// Package h1 serves HTTP/1.1 connections for a rest.Server: the plain
// requests the Azure SDKs send (HTTP/1.1, a clean path the caller takes, no
// body or a Content-Length one, no Expect, Transfer-Encoding or Upgrade)
// are read and answered here, each answer in one write, framed as
// net/http's server would frame it. A body larger than the connection's
// buffer is read only once the API (a rest.HeadServer) has judged the
// head, as the handler judges it under net/http before reading: a refusal
// is answered at once, and the buffer grows with what arrives, never with
// what a head declares. At the first request it does not take,
// a connection goes to a net/http server with the bytes already read, and
// stays there: whatever net/http answers today (files, redirects, 400, 431,
// chunked bodies, HTTP/1.0) it still answers.
package h1

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// Server is the front: it accepts connections and serves them.
type Server struct {
	// API answers the requests the front takes; it must be set.
	API rest.Server
	// Takes reports whether a request for this escaped path goes to API;
	// nil takes every path.
	Takes func(path string) bool
	// Fallback serves every connection handed over; its timeouts and
	// MaxHeaderBytes are the front's too, and its ErrorLog its log.
	Fallback *http.Server
	// Log, when set, is called after each answer the front writes, with
	// the request's method and target, the status and the time taken.
	Log func(method, uri string, status int, elapsed time.Duration)

	mu      sync.Mutex
	ln      net.Listener
	handoff *handoffListener
	conns   map[*conn]bool // true: a request is being answered
	// unanswered counts connections handed to net/http that have not
	// written yet: net/http drops a request it finishes reading after its
	// Shutdown began, so the fallback is shut down only once they have.
	unanswered int
	closing    atomic.Bool // set under mu; read without it by answers
}

// ErrServerClosed is what Serve returns after Shutdown.
var ErrServerClosed = http.ErrServerClosed

// Serve accepts connections on ln until Shutdown, serving each in its own
// goroutine.
func (s *Server) Serve(ln net.Listener) error {
	if !s.start(ln) {
		return ErrServerClosed
	}
	// Its error says only that Shutdown, or the end of this Serve, closed
	// the hand-over listener.
	go s.Fallback.Serve(s.handoff)
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			// As net/http: an error that may pass (out of file
			// descriptors: EMFILE, ENFILE) is waited out; ending Serve
			// would stop the server for every client.
			var ne interface{ Temporary() bool }
			if errors.As(err, &ne) && ne.Temporary() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			s.handoff.Close()
			return err
		}
		delay = 0
		c := newConn(s, nc)
		if !s.track(c) {
			nc.Close()
			continue
		}
		go c.serve()
	}
}

// Shutdown stops accepting, closes idle connections, lets requests being
// answered finish (then closes their connections), and then shuts the
// fallback down the same way (turning its keep-alives off at once, as its
// own Shutdown would); it returns when all are closed or ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	lnErr := s.stopAccepting()
	// net/http's answers now say they are the last, and its idle
	// connections close, while the front's finish.
	s.Fallback.SetKeepAlivesEnabled(false)
	// The front's connections finish first: one that hands its request
	// over meanwhile still finds net/http taking connections, and the
	// fallback's Shutdown then waits for it as for its own.
	err := s.drain(ctx)
	if fbErr := s.Fallback.Shutdown(ctx); err != nil || fbErr != nil {
		return errors.Join(err, fbErr)
	}
	if errors.Is(lnErr, net.ErrClosed) {
		lnErr = nil
	}
	return lnErr
}

// drain waits until the front holds no connection, or ctx ends.
func (s *Server) drain(ctx context.Context) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if s.open() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// start takes ln as the listener Serve accepts on; false once shutting
// down.
func (s *Server) start(ln net.Listener) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	s.ln, s.handoff, s.conns = ln, newHandoffListener(ln.Addr()), map[*conn]bool{}
	return true
}

// stopAccepting marks the server closing, closes its listener (returning
// that error) and its idle connections.
func (s *Server) stopAccepting() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing.Store(true)
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for c, busy := range s.conns {
		if !busy {
			c.nc.Close()
		}
	}
	return err
}

// open is the number of connections the front still serves, with those
// it handed over that have not begun their answer.
func (s *Server) open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns) + s.unanswered
}

// answering counts a handed-over connection from its hand-over until
// net/http writes to it or closes it; the returned func ends the count,
// once.
func (s *Server) answering() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unanswered++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.unanswered--
		})
	}
}

// isClosing reports whether Shutdown has begun.
func (s *Server) isClosing() bool { return s.closing.Load() }

// track adds a new connection; false once shutting down.
func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	s.conns[c] = false
	return true
}

// setActive notes whether c is answering a request; false when the server
// is shutting down and c must close instead.
func (s *Server) setActive(c *conn, busy bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	s.conns[c] = busy
	return true
}

// forget drops a connection that closed or was handed over.
func (s *Server) forget(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
}

// handOver gives a connection to the fallback; one that cannot go there
// (shutting down) is closed.
func (s *Server) handOver(c *handedConn) {
	c.answered = s.answering()
	if !s.handoff.give(c) {
		c.Close()
	}
}

// idleTimeout is how long a connection may wait for its next request, as
// net/http reckons it.
func (s *Server) idleTimeout() time.Duration {
	if s.Fallback.IdleTimeout != 0 {
		return s.Fallback.IdleTimeout
	}
	return s.Fallback.ReadTimeout
}

// headerTimeout is how long a request's header may take, as net/http
// reckons it.
func (s *Server) headerTimeout() time.Duration {
	if s.Fallback.ReadHeaderTimeout > 0 {
		return s.Fallback.ReadHeaderTimeout
	}
	return s.Fallback.ReadTimeout
}

func (s *Server) logf(format string, args ...any) {
	if s.Fallback.ErrorLog != nil {
		s.Fallback.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}
