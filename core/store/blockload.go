package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync/atomic"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// LoadBlocks replaces the whole account with a snapshot in blocks, read one
// at a time from next until it returns io.EOF; like Load it records
// nothing. Every block is checked as Restore checks a document — keys,
// names, types and values against the entity rules, key order, the end
// block's counts — and on any error the account is left untouched.
//
// Entity blocks are decoded and checked by one goroutine per processor
// while the next blocks are read; their entities go into the trees in the
// snapshot's order. At most a few blocks are held at once.
func (s *Store) LoadBlocks(next func() ([]byte, error)) error {
	var l blockLoader
	queue := make(chan *pendingBlock, 2*runtime.GOMAXPROCS(0))
	workers := make(chan struct{}, runtime.GOMAXPROCS(0))
	var failed atomic.Bool
	loaded := make(chan error, 1)
	go func() { loaded <- l.consume(queue, &failed) }()
	var rerr error
	for i := 1; !failed.Load(); i++ {
		b, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			rerr = err
			break
		}
		p := &pendingBlock{n: i, b: b}
		if len(b) > 0 && b[0] == 'E' {
			p.done = make(chan struct{})
			workers <- struct{}{}
			go func() {
				defer func() { <-workers }()
				p.batch = decodeEntities(b)
				close(p.done)
			}()
		}
		queue <- p
	}
	close(queue)
	if err := <-loaded; err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	if !l.ended {
		return errors.New("the snapshot ends before its end block")
	}
	tables, err := s.rekey(l.tables)
	if err != nil {
		return err
	}
	s.replace(tables, l.props, l.max, nil)
	return nil
}

// pendingBlock is block n, and for an entity block its decoding, done when
// done is closed.
type pendingBlock struct {
	n     int
	b     []byte
	done  chan struct{}
	batch entityBatch
}

// consume adds the queue's blocks in order; after the first error it only
// drains the queue, and says so through failed.
func (l *blockLoader) consume(queue <-chan *pendingBlock, failed *atomic.Bool) error {
	var first error
	for p := range queue {
		if p.done != nil {
			<-p.done
		}
		if first != nil {
			continue
		}
		if err := l.add(p.b, &p.batch); err != nil {
			first = fmt.Errorf("block %d: %v", p.n, err)
			failed.Store(true)
		}
	}
	return first
}

// blockLoader builds an account from blocks.
type blockLoader struct {
	started, ended bool
	props          ServiceProperties
	tables         map[string]*table
	order          []*table
	t              *table         // the table whose entities come
	last           *entity.Entity // its last entity
	entities       uint64
	max            edm.Ticks
}

// add adds block b; batch is b decoded when it is an entity block.
func (l *blockLoader) add(b []byte, batch *entityBatch) error {
	r := blockReader{b: b}
	kind := r.byte()
	switch {
	case l.ended:
		return errors.New("a block after the end block")
	case !l.started && kind != 'A':
		return errors.New("the snapshot does not begin with its account block")
	}
	switch kind {
	case 'A':
		if l.started {
			return errors.New("a second account block")
		}
		if v := r.uvarint(); r.err == nil && v != blocksVersion {
			return fmt.Errorf("unsupported snapshot version %d (this build reads version %d)", v, blocksVersion)
		}
		props := r.bytes()
		if r.err != nil {
			break
		}
		var p ServiceProperties
		if err := strictJSON(props, &p); err != nil {
			return fmt.Errorf("properties: %v", err)
		}
		p, err := p.check()
		if err != nil {
			return fmt.Errorf("properties: not valid service properties: %v", err)
		}
		l.started, l.props, l.tables = true, p, map[string]*table{}
	case 'T':
		return l.table(&r)
	case 'E':
		return l.entityBlock(batch)
	case 'Z':
		tables, entities := r.uvarint(), r.uvarint()
		if r.err == nil && (tables != uint64(len(l.order)) || entities != l.entities) {
			return fmt.Errorf("the end block counts %d tables and %d entities, the snapshot holds %d and %d", tables, entities, len(l.order), l.entities)
		}
		l.ended = true
	default:
		return fmt.Errorf("unknown block kind %d", kind)
	}
	return r.done()
}

func (l *blockLoader) table(r *blockReader) error {
	name := r.string()
	created := r.ticks()
	acl := r.bytes()
	if err := r.done(); err != nil {
		return err
	}
	if err := entity.CheckTableName(name); err != nil {
		return fmt.Errorf("table %q: %s", name, err.Message)
	}
	key := name // keyed by the account afterwards (rekey)
	if _, dup := l.tables[key]; dup {
		return fmt.Errorf("table %q: the account already has a table of that name", name)
	}
	var policies []snapshotPolicy
	if err := strictJSON(acl, &policies); err != nil {
		return fmt.Errorf("table %q: policies: %v", name, err)
	}
	if len(policies) > MaxSignedIdentifiers {
		return fmt.Errorf("table %q: more than %d stored access policies", name, MaxSignedIdentifiers)
	}
	t := newTable(name, created)
	for _, p := range policies {
		id, err := restorePolicy(p)
		if err != nil {
			return fmt.Errorf("table %q, policy %q: %v", name, p.ID, err)
		}
		t.acl = append(t.acl, id)
	}
	l.tables[key], l.t, l.last = t, t, nil
	l.order = append(l.order, t)
	return nil
}

func (l *blockLoader) entityBlock(batch *entityBatch) error {
	if l.t == nil {
		return errors.New("entities before any table")
	}
	for _, e := range batch.entities {
		if l.last != nil && !keyLess(l.last, e) {
			return fmt.Errorf("table %q, entity %d: PartitionKey %q and RowKey %q out of order or repeated", l.t.name, l.entities+1, e.PartitionKey, e.RowKey)
		}
		l.t.work.Load(itemOf(e))
		l.last = e
		l.entities++
		if e.Timestamp > l.t.last {
			l.t.last = e.Timestamp
		}
		if e.Timestamp > l.max {
			l.max = e.Timestamp
		}
	}
	if batch.err != nil {
		return fmt.Errorf("table %q, entity %d: %v", l.t.name, l.entities+1, batch.err)
	}
	return nil
}

// entityBatch is an entity block decoded and checked: its entities, up to
// the one err is about.
type entityBatch struct {
	entities []*entity.Entity
	err      error
}

// decodeEntities decodes and checks the entity block b.
func decodeEntities(b []byte) (out entityBatch) {
	r := blockReader{b: b[1:]}
	names := make([]string, r.count(1))
	for i := range names {
		names[i] = r.string()
		if r.err == nil && (isReserved(names[i]) || !utf8.ValidString(names[i])) {
			out.err = fmt.Errorf("property name %q is not a custom property", names[i])
			return out
		}
	}
	n := r.count(4)
	out.entities = make([]*entity.Entity, 0, n)
	var fields []entity.Field
	for i := uint64(0); i < n && r.err == nil; i++ {
		pk, rk := r.string(), r.string()
		ts := r.ticks()
		fields = fields[:0]
		for range r.count(2) {
			ni := r.uvarint()
			if r.err == nil && ni >= uint64(len(names)) {
				out.err = fmt.Errorf("a property name index %d of %d", ni, len(names))
				return out
			}
			v := r.value()
			if r.err != nil {
				break
			}
			fields = append(fields, entity.Field{Name: names[ni], Value: v})
		}
		if r.err != nil {
			break
		}
		e, err := buildEntity(pk, rk, ts, fields)
		if err != nil {
			out.err = err
			return out
		}
		out.entities = append(out.entities, e)
	}
	out.err = r.done()
	return out
}

// strictJSON decodes one JSON value with no unknown fields.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the value")
	}
	return nil
}

// blockReader reads a block's fields; the first error sticks and every
// later read returns a zero value.
type blockReader struct {
	b   []byte
	err error
}

var errShortBlock = errors.New("the block ends inside a field")

func (r *blockReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *blockReader) take(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.fail(errShortBlock)
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *blockReader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *blockReader) uvarint() uint64 { return number(r, binary.Uvarint) }

func (r *blockReader) varint() int64 { return number(r, binary.Varint) }

// number reads a varint with read (binary.Uvarint or binary.Varint).
func number[T uint64 | int64](r *blockReader, read func([]byte) (T, int)) T {
	if r.err != nil {
		return 0
	}
	v, n := read(r.b)
	if n <= 0 {
		r.fail(errors.New("a bad number"))
		return 0
	}
	r.b = r.b[n:]
	return v
}

// ticks reads a date and time the service can hold.
func (r *blockReader) ticks() edm.Ticks {
	t := edm.Ticks(r.varint())
	if r.err == nil && (t < edm.MinTicks || t > edm.MaxTicks) {
		r.fail(fmt.Errorf("a date and time out of range (%d ticks)", t))
	}
	return t
}

// count reads a count of items of at least min bytes each: no count larger
// than the rest of the block can hold is believed.
func (r *blockReader) count(min uint64) uint64 {
	n := r.uvarint()
	if n > uint64(len(r.b))/min {
		r.fail(errShortBlock)
		return 0
	}
	return n
}

func (r *blockReader) bytes() []byte { return r.take(r.uvarint()) }

func (r *blockReader) string() string {
	s := string(r.bytes())
	if !utf8.ValidString(s) {
		r.fail(errors.New("a string that is not UTF-8"))
	}
	return s
}

func (r *blockReader) value() edm.Value {
	code := uint64(r.byte())
	if r.err == nil && code >= uint64(len(blockTypes)) {
		r.fail(fmt.Errorf("unknown type code %d", code))
	}
	if r.err != nil {
		return edm.Value{}
	}
	switch blockTypes[code] {
	case edm.String:
		return edm.StringValue(r.string())
	case edm.Binary:
		return edm.BinaryValue(r.bytes())
	case edm.Boolean:
		switch r.byte() {
		case 0:
			return edm.BoolValue(false)
		case 1:
			return edm.BoolValue(true)
		}
		r.fail(errors.New("a Boolean neither 0 nor 1"))
	case edm.Int32:
		v := r.varint()
		if v < math.MinInt32 || v > math.MaxInt32 {
			r.fail(errors.New("an Int32 out of range"))
		}
		return edm.Int32Value(int32(v))
	case edm.Int64:
		return edm.Int64Value(r.varint())
	case edm.DateTime:
		return edm.DateTimeValue(r.ticks())
	case edm.Double:
		if b := r.take(8); b != nil {
			return edm.DoubleValue(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
	case edm.Guid:
		if b := r.take(16); b != nil {
			return edm.GuidValue([16]byte(b))
		}
	}
	return edm.Value{}
}

// done is the reader's error, or one for bytes left over.
func (r *blockReader) done() error {
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d bytes after the block's fields", len(r.b))
	}
	return r.err
}
