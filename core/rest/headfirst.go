package rest

// HeadServer is a Server that can begin a request on its head alone, as
// Handle does under net/http, where the body is read only once the gate
// has let the operation through: a transport that holds the head but not
// yet the body asks it first, and reads a body (sizing a buffer for it)
// only for a request let through.
type HeadServer interface {
	Server
	// HandleHead answers the request when its head decides the answer
	// (an unknown account or resource, a verb or version that cannot be
	// read, a CORS preflight, or the gate's refusal), writing it to w as
	// Handle would, and returns nil. Otherwise it writes nothing and
	// returns the function that finishes the answer, to be called once
	// with the same request, its Body, Text or Stream now set.
	HandleHead(w ResponseWriter, header Header, r Request) (finish func(Request))
}

// HandleHead begins a request on its head (HeadServer): the answer, or
// its continuation, is the one exchange Handle would make, with the same
// request id and time.
func (h *Handler) HandleHead(w ResponseWriter, header Header, r Request) (finish func(Request)) {
	x := h.begin(w, header, r)
	defer x.guard()
	path, ok := x.prelude()
	if !ok {
		return nil
	}
	s := x.top(path)
	hd := x.decodeHead(s)
	if hd.done {
		x.respond(hd.d)
		return nil
	}
	return func(r Request) {
		defer x.guard()
		x.r.Body, x.r.Text, x.r.Stream = r.Body, r.Text, r.Stream
		x.respond(x.decodeOp(s, hd))
	}
}

// HandleHead hands the request's head to its account's handler
// (HeadServer).
func (rt *Router) HandleHead(w ResponseWriter, header Header, r Request) func(Request) {
	return rt.route(&r).HandleHead(w, header, r)
}
