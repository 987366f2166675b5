package rest

import "sync"

// bodyPool keeps the buffers query pages are written into: a page of
// hundreds of entities is hundreds of kilobytes, which a fresh buffer would
// allocate, zero and leave to the collector on every request. A buffer goes
// back once the ResponseWriter has taken the bytes (Write must not keep them).
type bodyPool struct {
	pool sync.Pool
}

// maxPooledBody is the largest buffer kept for reuse: a whole page and
// the room AppendEntitiesWithin leaves for the entity it takes back.
const maxPooledBody = MaxPageBody + MaxPageBody/8

// bodyBuf is a pooled buffer (a pointer, so that pooling it allocates nothing).
type bodyBuf struct{ b []byte }

func (p *bodyPool) get() *bodyBuf {
	if b, ok := p.pool.Get().(*bodyBuf); ok {
		return b
	}
	return &bodyBuf{}
}

// put returns buf, keeping used, the slice last written into it (it may have
// grown past buf's own).
func (p *bodyPool) put(buf *bodyBuf, used []byte) {
	if cap(used) > maxPooledBody {
		return
	}
	buf.b = used[:0]
	p.pool.Put(buf)
}
