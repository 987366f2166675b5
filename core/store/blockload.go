package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/profile"
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
	l := blockLoader{names: s.profile.TableNames}
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
	for _, t := range l.order {
		t.work = compacted(t.work)
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
	t              *table // the table whose entities come
	last           item   // its last entity
	entities       uint64
	max            edm.Ticks
	names          profile.TableNameRule // the rule its table names meet
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
	if err := entity.CheckTableNameBy(l.names, name); err != nil {
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
	l.tables[key], l.t, l.last = t, t, item{}
	l.order = append(l.order, t)
	return nil
}

func (l *blockLoader) entityBlock(batch *entityBatch) error {
	if l.t == nil {
		return errors.New("entities before any table")
	}
	remap, same := l.t.remap(batch.names)
	for _, rw := range batch.rows {
		if !same {
			l.t.rename(rw, batch.names, remap)
		}
		pk, rk := rw.keys()
		it := itemOf(rw, pk, rk)
		if l.last.r != nil && !itemLess(l.last, it) {
			return fmt.Errorf("table %q, entity %d: PartitionKey %q and RowKey %q out of order or repeated", l.t.name, l.entities+1, pk, rk)
		}
		l.t.work.Load(it)
		l.last = it
		l.entities++
		if rw.ts > l.t.last {
			l.t.last = rw.ts
		}
	}
	if l.t.last > l.max {
		l.max = l.t.last
	}
	if batch.err != nil {
		return fmt.Errorf("table %q, entity %d: %v", l.t.name, l.entities+1, batch.err)
	}
	return nil
}

// entityBatch is an entity block decoded and checked: its rows, whose
// name references are indexes into the block's names (not yet the
// table's), up to the one err is about.
type entityBatch struct {
	names []string
	rows  []*row
	err   error
}

// decodeEntities decodes and checks the entity block b. It applies every
// rule Build applies (entity.CheckName, CheckKey, CheckValue, CheckLimits),
// each property name once for the block rather than once per entity, and
// builds the rows itself: a row's properties are the block's bytes (a row
// holds values as a block does) with the name indexes moved over a bit,
// checked as they are copied, and its structs are cut from shared chunks,
// so that an entity costs about one allocation.
func decodeEntities(b []byte) (out entityBatch) {
	r := blockReader{b: b[1:]}
	var d entityDecoder
	d.names = make([]blockName, r.count(1))
	out.names = make([]string, len(d.names))
	listed := make(map[string]bool, len(d.names))
	for i := range d.names {
		name := r.string()
		if r.err != nil {
			return entityBatch{err: r.err}
		}
		// Two indexes of one name would let an entity hold the name twice.
		if listed[name] {
			return entityBatch{err: fmt.Errorf("property name %q listed twice", name)}
		}
		listed[name] = true
		if isReserved(name) {
			return entityBatch{err: fmt.Errorf("property name %q is not a custom property", name)}
		}
		n, terr := entity.CheckName(name)
		if terr != nil {
			return entityBatch{err: ruleError(terr)}
		}
		d.names[i] = blockName{name: name, n: n}
		out.names[i] = name
	}
	n := r.count(4)
	out.rows = make([]*row, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		rw, err := d.row(&r, i+1, n)
		if err != nil {
			out.err = err
			return out
		}
		if rw == nil {
			break
		}
		out.rows = append(out.rows, rw)
	}
	out.err = r.done()
	return out
}

// blockName is a property name of an entity block, checked: its length in
// UTF-16 units, and the last entity (counting from 1) that used it, to find
// a name an entity repeats.
type blockName struct {
	name string
	n    int
	last uint64
}

// entityDecoder builds the rows of one block.
type entityDecoder struct {
	names []blockName
	rows  []row  // the chunk row structs are cut from
	buf   []byte // the row's data while it is read
}

// chunkRows is how many row structs a chunk holds (about 1.5 KiB).
const chunkRows = 32

// row reads and checks the next entity, number seq of the block's n; nil
// and no error when the reader failed (r.err says why).
func (d *entityDecoder) row(r *blockReader, seq, n uint64) (*row, error) {
	b := appendBlockBytes(d.buf[:0], r.bytes())
	b = appendBlockBytes(b, r.bytes())
	ts := r.ticks()
	count := r.count(2)
	if r.err != nil {
		return nil, nil
	}
	if count > entity.MaxProperties-3 {
		return nil, ruleError(entity.TooManyProperties(int(count) + 3))
	}
	b = binary.AppendUvarint(b, count)
	size := 4 // the formula's constant, then each name's share
	for j := uint64(0); j < count; j++ {
		ni := r.uvarint()
		if r.err == nil && ni >= uint64(len(d.names)) {
			return nil, fmt.Errorf("a property name index %d of %d", ni, len(d.names))
		}
		at := r.b
		r.value()
		if r.err != nil {
			return nil, nil
		}
		name := &d.names[ni]
		if name.last == seq {
			return nil, fmt.Errorf("property %q: repeated", name.name)
		}
		name.last = seq
		size += 8 + 2*name.n
		b = binary.AppendUvarint(b, ni<<1)
		b = append(b, at[:len(at)-len(r.b)]...) // the value as r.value checked it
	}
	d.buf = b
	rw := d.rowStruct(n - seq + 1)
	rw.data, rw.ts = string(b), ts
	pk, rk := rw.keys()
	if terr := entity.CheckKey(entity.PartitionKey, pk); terr != nil {
		return nil, ruleError(terr)
	}
	if terr := entity.CheckKey(entity.RowKey, rk); terr != nil {
		return nil, ruleError(terr)
	}
	size += 2 * (edm.UTF16Len(pk) + edm.UTF16Len(rk))
	props, rd := rw.count()
	for range props {
		ni := rd.uvarint() >> 1
		vs, terr := entity.CheckValue(d.names[ni].name, rd.value())
		if terr != nil {
			return nil, ruleError(terr)
		}
		size += vs
	}
	if terr := entity.CheckCountAndSize(props+3, size); terr != nil {
		return nil, ruleError(terr)
	}
	rw.size = int32(size)
	return rw, nil
}

// rowStruct returns an empty row from the chunk; left is how many the
// block still needs, this one included, so that its last chunk is no
// larger than that.
func (d *entityDecoder) rowStruct(left uint64) *row {
	if len(d.rows) == 0 {
		d.rows = make([]row, min(left, chunkRows))
	}
	rw := &d.rows[0]
	d.rows = d.rows[1:]
	return rw
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

// done is the reader's error, or one for bytes left over.
func (r *blockReader) done() error {
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d bytes after the block's fields", len(r.b))
	}
	return r.err
}
