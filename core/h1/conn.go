package h1

import (
	"bufio"
	"bytes"
	"net"
	"time"
	"unsafe"

	"github.com/tableplay/tableplay/core/rest"
)

// Buffer sizes: a connection starts with readSize bytes of input, which
// hold an SDK's request (headers and a small body) whole; a buffer grown
// past keepSize for a large request is dropped after it. Output up to
// sendSize is gathered and written at once; a larger body goes out beside
// it in the same write. A body of lendSize or more is lent to the engine
// where it lies instead of being copied (its buffer is then dropped too);
// a smaller one is copied once, and the engine reads that copy.
const (
	readSize = 8 << 10
	keepSize = 64 << 10
	sendSize = 16 << 10
	lendSize = 16 << 10
)

// conn is one client connection served by the front.
type conn struct {
	s      *Server
	nc     net.Conn
	raw    *rawIO // nil: nc's own Read and Write
	remote string
	// in[r:w] is what was read and not yet consumed.
	in   []byte
	r, w int
	out  []byte // the answer being gathered
	werr error  // the first write error; the connection then closes
	resp response
	body bytes.Reader // the request body the handler reads
	// lastPost: the last request was a POST, after which net/http skips a
	// stray CR LF that old clients send.
	lastPost bool
	// unread is the declared body of a request answered on its head,
	// which the handler was not given (writeHead counts it as unread).
	unread  int64
	mem     headMemory
	scratch [20]byte
	dateBuf [29]byte
}

func newConn(s *Server, nc net.Conn) *conn {
	c := &conn{s: s, nc: nc, raw: newRawIO(nc), remote: nc.RemoteAddr().String(), in: make([]byte, readSize), out: make([]byte, 0, 1024)}
	c.resp = response{c: c, header: rest.Header{}}
	c.resp.buf = bufio.NewWriterSize((*chunkWriter)(&c.resp), bufferBeforeChunking)
	return c
}

// serve answers the connection's requests in order until it closes, or
// hands it to net/http at the first request the front does not take.
func (c *conn) serve() {
	handed := false
	defer func() {
		if p := recover(); p != nil {
			c.s.logf("h1: panic serving %s: %v", c.remote, p)
		}
		if !handed {
			c.nc.Close()
		}
		c.s.forget(c)
	}()
	// As net/http: the first request's header is due within the header
	// limit from the connection's start; later ones may wait the idle
	// limit before their first byte, and then have the header limit.
	first, opened := true, time.Now()
	for {
		if c.r == c.w {
			c.r, c.w = 0, 0
			if !c.s.setActive(c, false) {
				return
			}
			wait := c.s.idleTimeout()
			if first {
				wait = c.s.headerTimeout()
			}
			c.nc.SetReadDeadline(deadline(time.Now(), wait))
			if !c.fill(len(c.in)) {
				return // idle too long, closed or reset: net/http says nothing either
			}
		}
		arrived := time.Now()
		start := arrived
		if first {
			start, first = opened, false
		}
		if !c.s.setActive(c, true) {
			return
		}
		if c.lastPost {
			for i := 0; i < 4 && c.r < c.w && (c.in[c.r] == '\r' || c.in[c.r] == '\n'); i++ {
				c.r++
			}
			c.lastPost = false
			if c.r == c.w {
				continue
			}
		}
		hdrDeadline, reqDeadline := deadline(start, c.s.Fallback.ReadHeaderTimeout), deadline(start, c.s.Fallback.ReadTimeout)
		if hdrDeadline.IsZero() {
			hdrDeadline = reqDeadline
		}
		w := c.w
		end, ok := c.readHead(hdrDeadline)
		// net/http counts the write limit from the end of the header.
		headRead := arrived
		if c.w != w {
			headRead = time.Now()
		}
		if !ok {
			c.handOver(hdrDeadline, reqDeadline)
			handed = true
			return
		}
		text := string(c.in[c.r:end])
		h, ok := parseHead(text, rest.MaxBody, &c.mem)
		if ok {
			p := h.url.EscapedPath()
			ok = cleanPath(p) && (c.s.Takes == nil || c.s.Takes(p))
		}
		if !ok {
			c.handOver(hdrDeadline, reqDeadline)
			handed = true
			return
		}
		// Reading the body may move what is unread to the buffer's start.
		headLen := end - c.r
		var finish func(rest.Request)
		var began time.Time
		if hs, judges := c.s.API.(rest.HeadServer); judges && headLen+int(h.length) > len(c.in) {
			// A body that would grow the buffer is read only once the
			// handler has judged the head, as under net/http: a request
			// its gate refuses is answered at once, and holds no more
			// than the buffer it was read into.
			began = c.start(&h, headRead)
			c.unread = h.length
			if finish = hs.HandleHead(&c.resp, c.resp.header, c.request(&h)); finish == nil {
				c.r += headLen
				if !c.endUnread(&h, began, reqDeadline) {
					return
				}
				continue
			}
			c.unread = 0
		}
		if !c.readBody(headLen, h.length, reqDeadline) {
			c.handOver(hdrDeadline, reqDeadline)
			handed = true
			return
		}
		if !c.answer(&h, c.r+headLen, headRead, finish, began) {
			if c.resp.limitHit {
				c.closeWriteAndWait()
			}
			return
		}
	}
}

// rstAvoidanceDelay is net/http's: after an answer to a request whose body
// was left unread, the connection closes its writing side and waits this
// long before closing, so that the client reads the answer before a reset
// (the unread bytes that arrive later would cause one) can discard it.
const rstAvoidanceDelay = 500 * time.Millisecond

// closeWriteAndWait closes the writing side of the connection and waits,
// as net/http does after an answer to a request whose body it left unread.
// Meanwhile it reads what the client still sends, up to what net/http
// would discard of a body: a client that closes on reading the answer (as
// clients do after Connection: close) leaves nothing unread, and the
// connection ends then rather than half a second later.
func (c *conn) closeWriteAndWait() {
	if cw, ok := c.nc.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	until := time.Now().Add(rstAvoidanceDelay)
	c.nc.SetReadDeadline(until)
	for read := 0; read <= maxPostHandlerRead; read += c.w {
		c.r, c.w = 0, 0
		if !c.fill(len(c.in)) {
			return // closed by the client, or the time is up
		}
	}
	time.Sleep(time.Until(until))
}

// fill reads once into c.in[c.w:]. When c.in is full, what is unread
// moves to its start, and it grows towards need bytes, to at most four
// times what it held: with what has arrived (a body of up to four buffers
// in one step), never with what a head declares. It reports whether
// anything was read.
func (c *conn) fill(need int) bool {
	if c.w == len(c.in) {
		if c.r > 0 {
			c.w = copy(c.in, c.in[c.r:c.w])
			c.r = 0
		}
		if c.w == len(c.in) {
			if len(c.in) >= need {
				return false
			}
			grown := make([]byte, min(max(4*len(c.in), readSize), need))
			copy(grown, c.in[:c.w])
			c.in = grown
		}
	}
	var n int
	var err error
	if c.raw != nil {
		n, err = c.raw.read(c.in[c.w:])
	} else {
		n, err = c.nc.Read(c.in[c.w:])
	}
	c.w += n
	return n > 0 || err == nil
}

// readHead reads until c.in[c.r:] holds a whole header block within the
// size limit, and returns where it ends.
func (c *conn) readHead(deadline time.Time) (int, bool) {
	limit := c.s.Fallback.MaxHeaderBytes
	if limit <= 0 {
		limit = 1 << 20
	}
	set, scanned := false, 0 // bytes after c.r already searched
	for {
		from := max(scanned-3, 0)
		if i := bytes.Index(c.in[c.r+from:c.w], []byte("\r\n\r\n")); i >= 0 && from+i+4 <= limit {
			return c.r + from + i + 4, true
		}
		scanned = c.w - c.r
		if scanned >= limit {
			return 0, false
		}
		if !set {
			c.nc.SetReadDeadline(deadline)
			set = true
		}
		if !c.fill(limit) {
			return 0, false
		}
	}
}

// readBody reads until the n body bytes after the head of headLen bytes at
// c.r are in c.in.
func (c *conn) readBody(headLen int, n int64, deadline time.Time) bool {
	need := headLen + int(n)
	set := false
	for c.w-c.r < need {
		if !set {
			c.nc.SetReadDeadline(deadline)
			set = true
		}
		if !c.fill(need) {
			return false
		}
	}
	return true
}

// skip reads past the next n bytes of input: those in the buffer, then as
// many read into it, which does not grow.
func (c *conn) skip(n int64, deadline time.Time) bool {
	for set := false; ; {
		k := min(int64(c.w-c.r), n)
		c.r += int(k)
		if n -= k; n == 0 {
			return true
		}
		c.r, c.w = 0, 0
		if !set {
			c.nc.SetReadDeadline(deadline)
			set = true
		}
		if !c.fill(len(c.in)) {
			return false
		}
	}
}

// request is h as the handler takes it, without its body.
func (c *conn) request(h *head) rest.Request {
	return rest.Request{Method: h.method, URL: h.url, Host: h.host, Header: h.header, ContentLength: h.length, RemoteAddr: c.remote}
}

// start prepares the answer to h, whose head was read at headRead; it
// returns when the handler begins (for the log).
func (c *conn) start(h *head, headRead time.Time) (began time.Time) {
	c.lastPost = h.method == "POST"
	if d := c.s.Fallback.WriteTimeout; d > 0 {
		c.nc.SetWriteDeadline(headRead.Add(d))
	}
	c.resp.reset(h)
	// The request log times the handler's run, as it does through net/http.
	if c.s.Log != nil {
		began = time.Now()
	}
	return began
}

// answer has the handler answer the request whose head ends at end and
// writes the answer; it reports whether the connection stays open. finish,
// when not nil, is the answer the handler began on the head at began; it
// then takes the body.
func (c *conn) answer(h *head, end int, headRead time.Time, finish func(rest.Request), began time.Time) bool {
	body := c.in[end : end+int(h.length)]
	c.r = end + int(h.length)
	req := c.request(h)
	// Below maxPostHandlerRead, net/http keeps the connection whether or not
	// the handler reads the body, so the engine gets it whole, as bytes and
	// as text, never written again. A large body (a batch) is lent as it
	// lies: copying it costs more than a fresh input buffer. But the engine
	// may keep substrings of it, and with them the whole buffer, so it is
	// lent only when it is most of that buffer (not beside a large head);
	// any other body is copied once, out of the buffer the next request is
	// read into.
	lent := h.length >= lendSize && h.length < maxPostHandlerRead && len(c.in) <= 2*int(h.length)
	switch {
	case lent:
		req.Body, req.Text = body, unsafe.String(unsafe.SliceData(body), len(body))
	case h.length > 0 && h.length < maxPostHandlerRead:
		own := make([]byte, len(body))
		copy(own, body)
		req.Body, req.Text = own, unsafe.String(unsafe.SliceData(own), len(own))
	case h.length > 0:
		// From maxPostHandlerRead on, whether the handler reads the body
		// decides whether the connection stays (writeHead).
		c.body.Reset(body)
		req.Stream = &c.body
	}
	if finish == nil {
		began = c.start(h, headRead)
		c.s.API.Handle(&c.resp, c.resp.header, req)
	} else {
		finish(req)
	}
	return c.end(h, began, lent)
}

// endUnread ends a request the handler answered on its head, its body
// unread: as under net/http, the connection closes after the answer when
// that body is maxPostHandlerRead or more (writeHead), and otherwise the
// body is read past first, the connection closing if it cannot be. It
// reports whether the connection stays open.
func (c *conn) endUnread(h *head, began, deadline time.Time) bool {
	if h.length < maxPostHandlerRead && !c.skip(h.length, deadline) {
		c.resp.closeAfter = true
	}
	keep := c.end(h, began, false)
	c.unread = 0
	if !keep && c.resp.limitHit {
		c.closeWriteAndWait()
	}
	return keep
}

// end writes the answer to h once the handler has returned (it began at
// began), and reports whether the connection stays open; lent says the
// input buffer holds a body the engine may keep.
func (c *conn) end(h *head, began time.Time, lent bool) bool {
	var elapsed time.Duration
	if c.s.Log != nil {
		elapsed = time.Since(began)
	}
	c.resp.finish()
	c.flush(nil)
	if c.s.Log != nil {
		c.s.Log(h.method, h.url.RequestURI(), c.resp.status, elapsed)
	}
	c.body.Reset(nil)
	if lent || cap(c.in) > keepSize {
		rest := c.in[c.r:c.w]
		c.in = make([]byte, max(readSize, len(rest)))
		c.r, c.w = 0, copy(c.in, rest)
	}
	return c.resp.reusable()
}

// send adds p to the answer: copied when small, else written out with what
// is gathered, in one write.
func (c *conn) send(p []byte) {
	if len(c.out)+len(p) <= sendSize {
		c.out = append(c.out, p...)
		return
	}
	c.flush(p)
}

// flush writes the gathered output and then p.
func (c *conn) flush(p []byte) {
	if c.werr == nil && (len(c.out) > 0 || len(p) > 0) {
		switch {
		case len(p) == 0 && c.raw != nil:
			_, c.werr = c.raw.write(c.out)
		case len(p) == 0:
			_, c.werr = c.nc.Write(c.out)
		case c.raw != nil:
			_, c.werr = c.raw.write2(c.out, p)
		default:
			bufs := net.Buffers{c.out, p}
			_, c.werr = bufs.WriteTo(c.nc)
		}
	}
	c.out = c.out[:0]
}

// handOver gives the connection, with the bytes read and not consumed, to
// net/http; the request being read keeps the deadlines it started with.
func (c *conn) handOver(hdrDeadline, reqDeadline time.Time) {
	pending := append([]byte(nil), c.in[c.r:c.w]...)
	c.s.handOver(&handedConn{Conn: c.nc, pending: pending, limits: [2]time.Time{hdrDeadline, reqDeadline}})
}

// deadline is start+d, or no deadline (the zero time) when d is not positive.
func deadline(start time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return start.Add(d)
}
