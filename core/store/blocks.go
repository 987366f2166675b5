package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tableplay/tableplay/core/entity"
)

// A snapshot in blocks is the account as a data directory keeps it: a
// sequence of blocks, each small enough to hold in memory, written from one
// table's consistent view at a time and loaded straight into new trees.
// Its owner frames and checksums the blocks; the JSON document (Snapshot)
// stays the export format. A block is a kind byte, then:
//
//	'A' account: uvarint version, then the service properties as JSON
//	    (uvarint length, bytes); always the first block
//	'T' table: name, created (varint ticks), stored access policies as
//	    JSON (uvarint length, bytes); its entities follow
//	'E' entities of the last table, in key order: uvarint count of names,
//	    the names, uvarint count of entities, each: PartitionKey, RowKey,
//	    Timestamp (varint ticks), uvarint count of properties, each a name
//	    (uvarint index into the block's names) and the value (value.go)
//	'Z' end: uvarint tables, uvarint entities; always the last block
//
// Strings are a uvarint length and UTF-8 bytes; values are written in the
// store's one value encoding (value.go).
const blocksVersion = 1

// blockTarget is the size at which an entities block is emitted.
const blockTarget = 256 << 10

// WriteBlocks streams the account as snapshot blocks to emit, tables in the
// order of their lower-cased names, each read from one consistent view of
// its tree; emit's error stops it. Memory beyond the account is one block.
func (s *Store) WriteBlocks(emit func(block []byte) error) error {
	props, err := json.Marshal(s.Properties())
	if err != nil {
		return err
	}
	b := binary.AppendUvarint([]byte{'A'}, blocksVersion)
	b = appendBlockBytes(b, props)
	if err := emit(b); err != nil {
		return err
	}
	tables := s.tablesFrom("")
	var entities uint64
	for _, t := range tables {
		n, err := t.writeBlocks(emit)
		if err != nil {
			return err
		}
		entities += n
	}
	end := binary.AppendUvarint([]byte{'Z'}, uint64(len(tables)))
	return emit(binary.AppendUvarint(end, entities))
}

// writeBlocks emits the table's block and its entities' blocks.
func (t *table) writeBlocks(emit func([]byte) error) (uint64, error) {
	acl, err := json.Marshal(t.policies())
	if err != nil {
		return 0, err
	}
	b := appendBlockString([]byte{'T'}, t.name)
	b = binary.AppendVarint(b, int64(t.created))
	if err := emit(appendBlockBytes(b, acl)); err != nil {
		return 0, err
	}
	var w entityBlock
	var count uint64
	v := t.view()
	dict := t.names.load() // after the view: it has every name the view's rows use
	var e entity.Entity
	var props []entity.Property
	v.Scan(func(it item) bool {
		n, _ := it.r.count()
		props = slices.Grow(props[:0], n)[:n]
		it.r.decode(dict, &e, props)
		err = w.add(&e)
		count++
		if err == nil && len(w.body) >= blockTarget {
			err = emit(w.block())
		}
		return err == nil
	})
	if err == nil && w.n > 0 {
		err = emit(w.block())
	}
	return count, err
}

// entityBlock gathers one 'E' block.
type entityBlock struct {
	names []string
	index map[string]uint64
	body  []byte
	n     uint64
	out   []byte // reused for the block emitted
}

func (w *entityBlock) add(e *entity.Entity) error {
	if w.index == nil {
		w.index = map[string]uint64{}
	}
	b := appendBlockString(w.body, e.PartitionKey)
	b = appendBlockString(b, e.RowKey)
	b = binary.AppendVarint(b, int64(e.Timestamp))
	b = binary.AppendUvarint(b, uint64(len(e.Properties)))
	for _, p := range e.Properties {
		i, ok := w.index[p.Name]
		if !ok {
			i = uint64(len(w.names))
			w.index[p.Name] = i
			w.names = append(w.names, p.Name)
		}
		b = binary.AppendUvarint(b, i)
		var known bool
		if b, known = appendBlockValue(b, p.Value); !known {
			return fmt.Errorf("entity %q/%q: property %q has no known type", e.PartitionKey, e.RowKey, p.Name)
		}
	}
	w.body = b
	w.n++
	return nil
}

// block returns the block gathered so far and starts the next; the bytes
// are valid until the next call.
func (w *entityBlock) block() []byte {
	b := binary.AppendUvarint(append(w.out[:0], 'E'), uint64(len(w.names)))
	for _, n := range w.names {
		b = appendBlockString(b, n)
	}
	b = binary.AppendUvarint(b, w.n)
	b = append(b, w.body...)
	w.out, w.body, w.n, w.names = b, w.body[:0], 0, w.names[:0]
	clear(w.index)
	return b
}

func appendBlockString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBlockBytes(b, s []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
